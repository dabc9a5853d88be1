import { SESSION_NAME_MAX } from '@spyglass/protocol';
import { Pencil } from 'lucide-react';
import { useState } from 'react';

/**
 * The session's name; the owner renames it by clicking it (spec 001 'Sessions'). Enter or leaving
 * the field saves, Escape cancels; an empty or unchanged name saves nothing.
 */
export function SessionName({ name, editable, onRename }: { name: string; editable: boolean; onRename?(name: string): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (!editable) return <h1 className="session-name">{name}</h1>;
  if (draft === null) {
    return (
      <h1 className="session-name">
        <button type="button" className="session-name-button" title="Click to rename" onClick={() => setDraft(name)}>
          {name}
          <Pencil size={13} aria-hidden="true" className="session-name-pencil" />
        </button>
      </h1>
    );
  }
  const commit = () => {
    const next = draft.trim();
    setDraft(null);
    if (next !== '' && next !== name) onRename?.(next);
  };
  return (
    <input
      className="input session-name-input"
      aria-label="Session name"
      autoFocus
      maxLength={SESSION_NAME_MAX}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
        if (event.key === 'Escape') setDraft(null);
      }}
    />
  );
}
