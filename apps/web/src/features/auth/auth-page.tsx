import { passwordProblems, type Profile } from '@spyglass/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { usePublicConfig } from '../../lib/config';
import { SPECIAL_OFFER_KEY, storeTokenForLater, writeStoredProfile } from '../../lib/storage';
import { useResolvedTheme } from '../../lib/theme';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { AuthLayout } from './auth-layout';
import { signIn, signUp } from './auth.api';
import { GoogleButton } from './google-button';
import { readReferrer } from './referrer';
import { DemoSignIn } from './demo-sign-in';
import { useDocumentTitle } from '../../lib/document-title';

export type AuthMode = 'signin' | 'signup';

const SIGN_UP_SENT = 'Verification email sent! Please check your inbox.';

/** Notice carried to the sign-in form in the history state (after sign-up). */
interface AuthLocationState {
  notice?: string;
}

/** The sign-in / sign-up form. It is the screen of every signed-out address (spec 000 §2.1). */
export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const config = usePublicConfig();
  const resolvedTheme = useResolvedTheme('default');
  const params = new URLSearchParams(location.search);
  const mode: AuthMode = location.pathname.includes('signup') ? 'signup' : 'signin';
  const notice = (location.state as AuthLocationState | null)?.notice ?? null;

  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [passwordErrors, setPasswordErrors] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);

  useDocumentTitle(mode === 'signup' ? 'Sign Up' : 'Sign In');

  useEffect(() => {
    const offer = new URLSearchParams(location.search).get('special-offer');
    if (offer) localStorage.setItem(SPECIAL_OFFER_KEY, offer);
  }, [location.search]);

  // Switching modes starts a fresh attempt.
  useEffect(() => {
    setFormError(null);
    setPasswordErrors([]);
  }, [mode]);

  const otherMode = mode === 'signin' ? '/signup' : '/signin';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!email.trim() || !password) {
      setFormError('Email and password are required');
      return;
    }
    if (mode === 'signup') {
      const problems = passwordProblems(password);
      setPasswordErrors(problems);
      if (problems.length > 0) return;
    }
    setSubmitting(true);
    try {
      if (mode === 'signin') {
        const { token } = await signIn(email.trim(), password);
        await auth.login(token);
        navigate('/', { replace: true });
      } else {
        const { token, profile } = await signUp(email.trim(), password, readReferrer(params));
        if (!token) throw new ApiError('Failed to register', 200);
        // Spec 000 §4.1: sign-up keeps the token and profile for later and returns to sign-in mode.
        storeTokenForLater(token);
        if (profile) writeStoredProfile(profile);
        // Said once, on the sign-in form it switches to (a toast as well showed it twice).
        setPassword('');
        navigate({ pathname: '/signin', search: location.search }, { state: { notice: SIGN_UP_SENT } satisfies AuthLocationState });
      }
    } catch (error) {
      const fallback = mode === 'signin' ? 'Login failed' : 'Registration failed';
      setFormError(errorMessage(error, fallback));
    } finally {
      setSubmitting(false);
    }
  }

  async function onGoogleSignedIn(token: string, profile: Profile) {
    await auth.login(token, profile);
    navigate('/', { replace: true });
  }

  const showGoogle = config.googleClientId !== null && !config.demoMode;
  // On a demo server the explicit /signin address is how a real account still signs in.
  const autoDemo = config.demoMode && location.pathname !== '/signin';

  return (
    <AuthLayout
      title={mode === 'signin' ? 'Sign in to Spyglass' : 'Create your account'}
      subtitle={mode === 'signin' ? 'Watch your app’s traffic live.' : 'Inspect your mobile app’s requests, logs and events live.'}
      // Not before the configuration is known: a demo server would otherwise flash a Sign up link.
      footer={!config.isLoading && !config.demoMode && (
        mode === 'signin'
          ? <>Don’t have an account? <Link to={{ pathname: otherMode, search: location.search }}>Sign up</Link></>
          : <>Already have an account? <Link to={{ pathname: otherMode, search: location.search }}>Sign in</Link></>
      )}
    >
      {notice && mode === 'signin' && <FormMessage tone="success">{notice}</FormMessage>}
      {autoDemo && <DemoSignIn />}
      {showGoogle && config.googleClientId && (
        <>
          <GoogleButton clientId={config.googleClientId} mode={mode} theme={resolvedTheme} onSignedIn={onGoogleSignedIn} />
          <div className="auth-divider"><span>or</span></div>
        </>
      )}
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus={!email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@company.com"
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
          autoFocus={Boolean(email)}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (passwordErrors.length > 0) setPasswordErrors(passwordProblems(e.target.value));
          }}
          error={passwordErrors}
          hint={mode === 'signup' ? 'At least 10 characters, with a number and a special character.' : undefined}
          labelAside={mode === 'signin' && <Link className="field-link" to="/reset-password">Reset password</Link>}
        />
        {formError && <FormMessage tone="error">{formError}</FormMessage>}
        <Button type="submit" variant="primary" size="lg" loading={submitting} className="auth-submit">
          {mode === 'signin' ? 'Sign In' : 'Sign Up'}
        </Button>
      </form>
    </AuthLayout>
  );
}
