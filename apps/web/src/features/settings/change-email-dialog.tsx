import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Email, type Profile } from '@spyglass/protocol';
import { errorMessage } from '../../lib/api';
import { usePublicConfig } from '../../lib/config';
import { useResolvedTheme } from '../../lib/theme';
import { GoogleButton } from '../auth/google-button';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { updateEmail, type EmailChangeProof } from './settings.api';

const LINK_SENT = 'Verification email sent! Please check your inbox.';

/**
 * Changing the e-mail proves the owner is here (the current password, or a Google sign-in made
 * now) and takes effect only once the link mailed to the new address is opened; the old address
 * is told. Every browser then signs in again.
 */
export function ChangeEmailDialog({ profile, onClose, onRequested }: {
  profile: Profile;
  onClose: () => void;
  onRequested: (pendingEmail: string) => void;
}) {
  const formId = useId();
  const { googleClientId } = usePublicConfig();
  const theme = useResolvedTheme(profile.settings.theme);
  const viaGoogle = profile.authProvider === 'google';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ address, proof }: { address: string; proof: EmailChangeProof }) => updateEmail(address, proof),
    onSuccess: ({ pendingEmail }) => {
      onRequested(pendingEmail);
      toast.success(LINK_SENT);
    },
    onError: (error) => setProblem(errorMessage(error, 'Failed to update email')),
  });

  /** The address as the server will read it, or null with the problem shown. */
  const checkedEmail = (): string | null => {
    const parsed = Email.safeParse(email);
    setEmailProblem(parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid email'));
    return parsed.success ? parsed.data : null;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const address = checkedEmail();
    if (!address) return;
    if (!password) {
      setProblem('Current password is required');
      return;
    }
    mutation.mutate({ address, proof: { currentPassword: password } });
  };

  const confirmWithGoogle = async (googleToken: string) => {
    const address = checkedEmail();
    if (!address) return;
    await mutation.mutateAsync({ address, proof: { googleToken } });
  };

  const done = mutation.data;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Change Email"
      description={`Your current email is ${profile.email}. The change takes effect when you open the link we send to the new address, and we let your current address know.`}
      actions={done ? <Button variant="primary" onClick={onClose}>Done</Button> : (
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          {!viaGoogle && (
            <Button type="submit" form={formId} variant="primary" loading={mutation.isPending}>Send Link</Button>
          )}
        </>
      )}
    >
      {done ? (
        <FormMessage tone="success">
          We sent a link to <strong>{done.pendingEmail}</strong>. Open it to confirm the change; until then your email stays {profile.email}.
          Every browser will need to sign in again afterwards.
        </FormMessage>
      ) : (
        <form id={formId} className="settings-dialog-form" onSubmit={submit} noValidate>
          <TextField
            label="New Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={emailProblem}
            autoFocus
          />
          {viaGoogle ? (
            googleClientId ? (
              <div className="settings-google-confirm">
                <p className="settings-dialog-note">Sign in with Google again to confirm it is you.</p>
                <GoogleButton clientId={googleClientId} mode="signin" theme={theme} onCredential={confirmWithGoogle} />
              </div>
            ) : (
              <FormMessage tone="info">Google sign-in is not enabled on this server, so the email of a Google account cannot be changed.</FormMessage>
            )
          ) : (
            <TextField
              label="Current Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
          {problem && <FormMessage tone="error">{problem}</FormMessage>}
        </form>
      )}
    </Dialog>
  );
}
