import { RESEND_COOLDOWN, type Profile } from '@spyglass/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ACCOUNT_QUERY_KEY } from '../../lib/account';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useDocumentTitle } from '../../lib/document-title';
import { readStoredProfile } from '../../lib/storage';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { Spinner } from '../../ui/spinner';
import { AuthLayout } from './auth-layout';
import { resendVerification, verifyEmail } from './auth.api';
import { useCooldown } from './use-cooldown';

const VERIFIED = 'Your email has been successfully verified! You can now proceed.';
const VERIFY_FAILED = 'Email verification failed. Please try again or request a new verification email.';
const RESEND_SENT = 'Verification email sent! Please check your inbox.';
const RESEND_FAILED = 'Failed to send verification email. Please try again.';

/** /verify-email?token=: verifying, then verified or failed (spec 000 §4.2). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const auth = useAuth();
  useDocumentTitle('Verify email');

  // A query, not an effect: the link is single-use, and a query runs it once however often the
  // page renders (React's strict mode mounts twice in development).
  // Kept apart from the query cache: a confirmed e-mail change signs this browser out, which
  // drops every cached answer, and the link cannot be used twice.
  const [verifiedProfile, setVerifiedProfile] = useState<Profile | null>(null);
  const verification = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => verifyEmail(token!),
    enabled: token !== null && token !== '' && verifiedProfile === null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  useEffect(() => {
    if (verification.data) setVerifiedProfile(verification.data);
  }, [verification.data]);
  const { profile: currentProfile, setProfile } = auth;
  const queryClient = useQueryClient();
  // A confirmed e-mail change signs every browser out, this one included: reloading the account
  // meets the revoked token, and the page then offers to sign in with the new address.
  const [emailChanged, setEmailChanged] = useState(false);
  useEffect(() => {
    if (!verifiedProfile || !currentProfile || currentProfile.id !== verifiedProfile.id) return;
    if (currentProfile.email !== verifiedProfile.email) {
      setEmailChanged(true);
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
    } else if (!currentProfile.emailVerified) {
      setProfile(verifiedProfile);
    }
  }, [verifiedProfile, currentProfile, setProfile, queryClient]);

  if (!token) return <Failed message="Invalid verification link" />;
  const result = verifiedProfile ?? verification.data ?? null;
  if (!result && verification.isPending) {
    return (
      <AuthLayout title="Verifying your email">
        <div className="verify-state" role="status">
          <Spinner size={22} />
          <p>Verifying your email…</p>
        </div>
      </AuthLayout>
    );
  }
  if (!result) {
    const message = verification.error instanceof ApiError && verification.error.status !== 0 && verification.error.status < 500
      ? verification.error.message
      : VERIFY_FAILED;
    return <Failed message={message} />;
  }
  return (
    <AuthLayout title="Email verified">
      <div className="verify-state">
        <CircleCheck className="verify-icon verify-icon-success" size={36} aria-hidden="true" />
        <p className="verify-message">{VERIFIED}</p>
        {emailChanged && <p className="verify-message">{`Your email is now ${result.email}. Please sign in again.`}</p>}
        {auth.isAuthenticated && !emailChanged ? (
          <Link className="btn btn-primary btn-lg" to="/devices">Continue to Spyglass</Link>
        ) : (
          <Link className="btn btn-primary btn-lg" to={`/signin?email=${encodeURIComponent(result.email)}`}>Sign In</Link>
        )}
      </div>
    </AuthLayout>
  );
}

function Failed({ message }: { message: string }) {
  return (
    <AuthLayout title="Verification Failed" footer={<Link to="/">Back to Spyglass</Link>}>
      <div className="verify-state">
        <CircleX className="verify-icon verify-icon-error" size={36} aria-hidden="true" />
        <p className="verify-message" role="alert">{message}</p>
      </div>
      <ResendVerification />
    </AuthLayout>
  );
}

/** Resend with a growing cool-down: 10 s after the first press, 20 s after the second, and so on. */
function ResendVerification() {
  const auth = useAuth();
  const knownEmail = auth.profile?.email ?? readStoredProfile()?.email ?? '';
  const [email, setEmail] = useState(knownEmail);
  const [presses, setPresses] = useState(0);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const cooldown = useCooldown();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setResult({ tone: 'error', text: 'Please enter your email' });
      return;
    }
    setSending(true);
    setResult(null);
    try {
      await resendVerification(email.trim());
      // Said once, beside the form (a toast as well showed it twice).
      setResult({ tone: 'success', text: RESEND_SENT });
    } catch (e) {
      setResult({ tone: 'error', text: e instanceof ApiError && e.status === 429 ? e.message : RESEND_FAILED });
    } finally {
      setSending(false);
      cooldown.start(RESEND_COOLDOWN.startS + presses * RESEND_COOLDOWN.stepS);
      setPresses((n) => n + 1);
    }
  }

  return (
    <form className="auth-form verify-resend" onSubmit={onSubmit} noValidate>
      {!auth.isAuthenticated && (
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="you@company.com" />
      )}
      {result && <FormMessage tone={result.tone}>{result.text}</FormMessage>}
      <Button type="submit" variant="secondary" size="lg" className="auth-submit" loading={sending} disabled={cooldown.remaining > 0}>
        {cooldown.remaining > 0 ? `Resend in ${cooldown.remaining}s` : 'Resend verification email'}
      </Button>
    </form>
  );
}
