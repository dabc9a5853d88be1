import { Lock, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, IconButton } from '../../ui/button';

export interface HeaderRow { key: string; value: string }

export interface HeaderRowsProps {
  rows: readonly HeaderRow[];
  /** A row was added, deleted, or an edited field lost focus. */
  onChange(rows: HeaderRow[]): void;
  /** What a new row holds; it is put at the top. */
  newRow: HeaderRow;
  /** A header shown but not editable or deletable (the item mock's Spyglass-Intercepted). */
  lockedKey?: string;
  disabled?: boolean;
}

/**
 * Headers as key/value rows. Typing stays local; the change is handed on when a field loses focus,
 * so that a header saved at once is saved once per edit, not once per key stroke.
 */
export function HeaderRows({ rows, onChange, newRow, lockedKey, disabled = false }: HeaderRowsProps) {
  const [draft, setDraft] = useState<HeaderRow[]>(() => [...rows]);
  useEffect(() => setDraft([...rows]), [rows]);

  const isLocked = (row: HeaderRow) => lockedKey !== undefined && row.key.toLowerCase() === lockedKey.toLowerCase();
  const edit = (index: number, patch: Partial<HeaderRow>) =>
    setDraft((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const commit = () => {
    if (draft.some((row, i) => row.key !== rows[i]?.key || row.value !== rows[i]?.value) || draft.length !== rows.length) onChange(draft);
  };

  return (
    <div className="header-rows">
      <div className="header-rows-toolbar">
        <Button size="sm" variant="ghost" icon={<Plus size={14} aria-hidden="true" />} disabled={disabled} onClick={() => onChange([{ ...newRow }, ...draft])}>
          Add header
        </Button>
      </div>
      {draft.length === 0 && <div className="header-rows-empty">No headers</div>}
      {draft.map((row, index) => {
        const locked = isLocked(row);
        return (
          // Rows have no identity but their place; a delete re-renders the rows after it.
          <div className="header-row" key={index}>
            <input
              className="input input-sm"
              aria-label={`Header ${index + 1} name`}
              value={row.key}
              readOnly={locked}
              disabled={disabled}
              onChange={(event) => edit(index, { key: event.target.value })}
              onBlur={commit}
            />
            <input
              className="input input-sm"
              aria-label={`Header ${index + 1} value`}
              value={row.value}
              readOnly={locked}
              disabled={disabled}
              onChange={(event) => edit(index, { value: event.target.value })}
              onBlur={commit}
            />
            {locked ? (
              <span className="header-row-lock" title="Added to every mocked answer; it cannot be changed">
                <Lock size={13} aria-label="Not editable" />
              </span>
            ) : (
              <IconButton label={`Delete header ${row.key || index + 1}`} disabled={disabled} onClick={() => onChange(draft.filter((_, i) => i !== index))}>
                <Trash2 size={14} aria-hidden="true" />
              </IconButton>
            )}
          </div>
        );
      })}
    </div>
  );
}
