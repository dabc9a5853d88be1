import { useState } from 'react';
import { CodeEditor } from '../mocks/editor/code-editor';
import { Dialog } from '../../ui/dialog';
import type { UserDefaultValue } from '@spyglass/protocol';

/**
 * Spec 002 §2/§4: the JSON modal of a value; closing it saves. Text that is not JSON keeps the
 * modal open with the parser's message, so nothing half-typed is stored.
 */
export function JsonValueDialog({ title, initial, onSave, onCancel }: {
  title: string;
  initial: string;
  onSave(value: UserDefaultValue): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    if (text === initial) {
      onCancel();
      return;
    }
    try {
      onSave(JSON.parse(text) as UserDefaultValue);
    } catch (error) {
      setProblem(`Invalid JSON: ${(error as Error).message}`);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && close()} title={title} size="lg">
      <div className="ud-json-editor">
        <CodeEditor value={text} onChange={setText} language="json" height="50vh" label="JSON value" />
      </div>
      {problem && <p className="ud-inline-error" role="alert">{problem}</p>}
    </Dialog>
  );
}
