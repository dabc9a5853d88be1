import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { changePasswordProblems } from './change-password-rules';
import { changePassword } from './settings.api';

const CLOSE_AFTER_SUCCESS_MS = 1500;
const PASSWORD_HINT = 'At least 10 characters, with a number and a special character.';

export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const formId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const mutation = useMutation({
    mutationFn: () => changePassword(current, next),
    onError: (error) => setProblems([errorMessage(error, 'Failed to change password')]),
  });

  // Spec 000 §8: the success message shows, then the dialog closes after 1.5 s.
  useEffect(() => {
    if (!mutation.isSuccess) return;
    const timer = window.setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [mutation.isSuccess, onClose]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = changePasswordProblems(current, next, confirm);
    setProblems(found);
    if (found.length === 0) mutation.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Change Password"
      actions={(
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" loading={mutation.isPending} disabled={mutation.isSuccess}>
            Change Password
          </Button>
        </>
      )}
    >
      <form id={formId} className="settings-dialog-form" onSubmit={submit} noValidate>
        <TextField label="Current Password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} autoFocus />
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          hint={PASSWORD_HINT}
        />
        <TextField label="Confirm New Password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        {problems.length > 0 && (
          <FormMessage tone="error">
            {problems.map((problem) => <div key={problem}>{problem}</div>)}
          </FormMessage>
        )}
        {mutation.isSuccess && <FormMessage tone="success">Password changed successfully</FormMessage>}
      </form>
    </Dialog>
  );
}
