import { passwordProblems } from '@spyglass/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { AuthLayout } from './auth-layout';
import { forgotPassword, resetPassword } from './auth.api';
import { useCooldown } from './use-cooldown';

const RESET_SENT = 'Password reset email sent! Please check your inbox.';
const RESET_DONE = 'Password successfully reset! Please login with your new password.';
/** Spec 000 §8: the send button rests 10 s, the toast stays 6 s, the sign-in form follows 2 s after a reset. */
const SEND_COOLDOWN_S = 10;
const SENT_TOAST_MS = 6000;
const REDIRECT_AFTER_RESET_MS = 2000;

/** /reset-password asks for a link; /reset-password?token= sets the new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  useDocumentTitle('Reset password');
  return token ? <SetPasswordForm token={token} /> : <RequestResetForm initialEmail={params.get('email') ?? ''} />;
}

function BackToSignIn() {
  return <Link to="/signin">Back to sign in</Link>;
}

function RequestResetForm({ initialEmail }: { initialEmail: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const cooldown = useCooldown();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!email.trim()) {
      setError('Please enter your email');
      return;
    }
    setSending(true);
    try {
      await forgotPassword(email.trim());
      setSent(true);
      cooldown.start(SEND_COOLDOWN_S);
      toast.success(RESET_SENT, { duration: SENT_TOAST_MS });
    } catch (e) {
      setError(errorMessage(e, 'Failed to send reset email'));
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email of your account and we will send you a link to choose a new password."
      footer={<BackToSignIn />}
    >
      {sent && <FormMessage tone="success">{RESET_SENT}</FormMessage>}
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@company.com"
        />
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <Button type="submit" variant="primary" size="lg" className="auth-submit" loading={sending} disabled={cooldown.remaining > 0}>
          {cooldown.remaining > 0 ? `Resend in ${cooldown.remaining}s` : sent ? 'Send again' : 'Send reset link'}
        </Button>
      </form>
    </AuthLayout>
  );
}

function SetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [passwordErrors, setPasswordErrors] = useState<string[]>([]);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => navigate('/signin', { replace: true }), REDIRECT_AFTER_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problems = passwordProblems(password);
    const mismatch = password !== confirm ? 'Passwords do not match' : null;
    setPasswordErrors(problems);
    setConfirmError(mismatch);
    if (problems.length > 0 || mismatch) return;
    setSaving(true);
    try {
      await resetPassword(token, password);
      setDone(true);
      toast.success(RESET_DONE);
    } catch (e) {
      setError(errorMessage(e, 'Failed to reset password'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <AuthLayout title="Choose a new password" footer={<BackToSignIn />}>
      {done ? (
        <FormMessage tone="success">{RESET_DONE}</FormMessage>
      ) : (
        <form className="auth-form" onSubmit={onSubmit} noValidate>
          <TextField
            label="New password"
            type="password"
            name="new-password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (passwordErrors.length > 0) setPasswordErrors(passwordProblems(e.target.value));
            }}
            error={passwordErrors}
            hint="At least 10 characters, with a number and a special character."
          />
          <TextField
            label="Confirm new password"
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={confirmError}
          />
          {error && <FormMessage tone="error">{error}</FormMessage>}
          <Button type="submit" variant="primary" size="lg" className="auth-submit" loading={saving}>
            Reset password
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
