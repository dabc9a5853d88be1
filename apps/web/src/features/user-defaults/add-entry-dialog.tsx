import { STANDARD_USER_DEFAULTS_SUITE, type UserDefaultValue } from '@spyglass/protocol';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { newEntryProblem, newValueFromText, type UserDefaultRow } from './user-defaults-rows';

/**
 * Adds a key to the device's user defaults: its group (suite; the app's own `standard` unless
 * another is named), key and value. The device writes it and answers with everything it holds.
 */
export function AddEntryDialog({ rows, onAdd, onCancel }: {
  rows: readonly UserDefaultRow[];
  onAdd(name: string, key: string, value: UserDefaultValue): Promise<boolean>;
  onCancel(): void;
}) {
  const formId = useId();
  const groupsId = useId();
  const [name, setName] = useState(STANDARD_USER_DEFAULTS_SUITE);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const groups = [...new Set(rows.map((row) => row.name))].sort();
  // What was refused is about the fields as they were: an edit takes the message away.
  const edit = (set: (text: string) => void, text: string) => {
    set(text);
    setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = newEntryProblem(rows, name.trim(), key.trim());
    setProblem(found);
    if (found) return;
    setSaving(true);
    const added = await onAdd(name.trim(), key.trim(), newValueFromText(value));
    setSaving(false);
    if (!added) setProblem('Failed to update value');
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title="Add user default"
      description="The device stores it at once; the table shows what the device then holds."
      actions={(
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" loading={saving}>Add</Button>
        </>
      )}
    >
      <form id={formId} className="ud-add-form" onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="Group" value={name} list={groupsId} autoComplete="off" spellCheck={false} onChange={(event) => edit(setName, event.target.value)} />
        <datalist id={groupsId}>{groups.map((group) => <option key={group} value={group} />)}</datalist>
        <TextField label="Key" value={key} autoFocus autoComplete="off" spellCheck={false} onChange={(event) => edit(setKey, event.target.value)} />
        <TextField
          label="Value"
          value={value}
          autoComplete="off"
          spellCheck={false}
          hint={<>JSON is stored as such (<code>true</code>, <code>42</code>, <code>["a", "b"]</code>, <code>{'{"a": 1}'}</code>); anything else as text.</>}
          onChange={(event) => edit(setValue, event.target.value)}
        />
        {problem && <p className="ud-inline-error ud-add-problem" role="alert">{problem}</p>}
      </form>
    </Dialog>
  );
}
