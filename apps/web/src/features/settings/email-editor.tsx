import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Email } from '@spyglass/protocol';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { SettingsRow } from './settings-section';
import { updateEmail } from './settings.api';

export function EmailEditor({ email }: { email: string }) {
  const { setProfile } = useAuth();
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: updateEmail,
    onSuccess: (profile) => {
      setProfile(profile);
      setDraft(null);
      toast.success('Email updated successfully');
    },
    onError: (error) => setProblem(errorMessage(error, 'Failed to update email')),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft === null) return;
    const parsed = Email.safeParse(draft);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Invalid email');
      return;
    }
    setProblem(null);
    mutation.mutate(parsed.data);
  };

  const cancel = () => {
    setDraft(null);
    setProblem(null);
  };

  if (draft === null) {
    return (
      <SettingsRow label="Email" description={email}>
        <Button onClick={() => setDraft(email)}>Edit Email</Button>
      </SettingsRow>
    );
  }
  return (
    <form className="settings-row settings-email-form" onSubmit={submit} noValidate>
      <TextField
        label="Email"
        type="email"
        value={draft}
        autoComplete="email"
        autoFocus
        error={problem}
        onChange={(e) => setDraft(e.target.value)}
      />
      <div className="settings-row-control">
        <Button variant="ghost" onClick={cancel}>Cancel</Button>
        <Button type="submit" variant="primary" loading={mutation.isPending}>Save</Button>
      </div>
    </form>
  );
}
