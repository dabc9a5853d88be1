import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DELETE_ACCOUNT_CONFIRMATION } from '@spyglass/protocol';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { deleteAccount } from './settings.api';

export function DeleteAccountDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const formId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: () => deleteAccount(userId),
    // Spec 000 §8: after deletion all local storage is cleared and the page reloads.
    onSuccess: () => {
      localStorage.clear();
      window.location.reload();
    },
    onError: (error) => setProblem(errorMessage(error, 'Failed to delete account')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed !== DELETE_ACCOUNT_CONFIRMATION) {
      setProblem(`Please type "${DELETE_ACCOUNT_CONFIRMATION}" to confirm`);
      return;
    }
    setProblem(null);
    mutation.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete Account"
      description="This deletes your account with all its devices, sessions, mocks and captured data. It cannot be undone."
      actions={(
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="danger" loading={mutation.isPending}>Delete Account</Button>
        </>
      )}
    >
      <form id={formId} className="settings-dialog-form" onSubmit={submit} noValidate>
        <TextField
          label={`Type "${DELETE_ACCOUNT_CONFIRMATION}" to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        {problem && <FormMessage tone="error">{problem}</FormMessage>}
      </form>
    </Dialog>
  );
}
