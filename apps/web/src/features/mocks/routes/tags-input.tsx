import { MOCK_LIMITS } from '@spyglass/protocol';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { addTag, canAddTag } from '../mock-rules';

/** Spec 002 §5: up to 10 tags; Enter confirms a tag, Escape cancels it; blank tags are ignored. */
export function TagsInput({ tags, onChange }: { tags: readonly string[]; onChange(tags: string[]): void }) {
  const [text, setText] = useState('');
  const full = !canAddTag(tags);
  const confirm = () => {
    const next = addTag(tags, text);
    if (next !== tags) onChange([...next]);
    setText('');
  };

  return (
    <div className="tags-input">
      {tags.map((tag) => (
        <span className="tag-chip" key={tag}>
          {tag}
          <button type="button" className="tag-chip-remove" aria-label={`Remove tag ${tag}`} onClick={() => onChange(tags.filter((t) => t !== tag))}>
            <X size={12} aria-hidden="true" />
          </button>
        </span>
      ))}
      <input
        className="input input-sm tags-input-field"
        aria-label="New tag"
        placeholder={full ? `${MOCK_LIMITS.maxTags} tags at most` : 'Add a tag'}
        value={text}
        disabled={full}
        maxLength={MOCK_LIMITS.maxTagLength}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            confirm();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            setText('');
          }
        }}
      />
      <Button size="sm" variant="ghost" icon={<Plus size={14} aria-hidden="true" />} disabled={full || text.trim() === ''} onClick={confirm}>
        Add tag
      </Button>
    </div>
  );
}
