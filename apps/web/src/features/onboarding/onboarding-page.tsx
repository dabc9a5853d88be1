import { PAID_PLANS } from '@spyglass/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, PhoneCall } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ACCOUNT_QUERY_KEY } from '../../lib/account';
import { ApiError } from '../../lib/api';
import { useAuth, useToken } from '../../lib/auth';
import { usePublicConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/document-title';
import { useLiveConnectionLifecycle } from '../../lib/live';
import { Button } from '../../ui/button';
import { Logo } from '../../ui/logo';
import { verifyEmail } from '../auth/auth.api';
import { useAwaitPaidPlan } from '../billing/use-checkout-outcome';
import { AddDeviceStep } from './add-device-step';
import { DetailsStep } from './details-step';
import { GetStartedStep } from './get-started-step';
import { completeOnboarding } from './onboarding.api';
import { allowedStep, ONBOARDING_STEPS, previousStep, STEP_LABELS, stepFromHash, type OnboardingStep } from './onboarding-steps';
import { hasValidSubscription, SubscriptionStep, type SubscriptionOutcome } from './subscription-step';
import { VerifyEmailStep, type Verification } from './verify-email-step';
import { WelcomeStep } from './welcome-step';
import './onboarding.css';

const VERIFY_FAILED = 'Email verification failed. Please try again or request a new verification email.';
/** While the address is unverified the profile is reloaded this often: the link may be opened in another tab. */
const VERIFIED_POLL_MS = 3000;

/** /onboarding#step (spec 000 §2.4, §4.3) for a signed-in user who has not completed it. */
export function OnboardingPage() {
  const { profile, subscription, setProfile, logout } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [completing, setCompleting] = useState(false);
  useLiveConnectionLifecycle(useToken());
  useDocumentTitle('Welcome to Spyglass');

  const token = params.get('token');
  const outcomeParam = params.get('subscription');
  const outcome: SubscriptionOutcome = outcomeParam === 'success' || outcomeParam === 'canceled' ? outcomeParam : null;
  const verification = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => verifyEmail(token!),
    enabled: Boolean(token) && profile?.emailVerified === false,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    if (verification.data && profile && verification.data.id === profile.id && !profile.emailVerified) setProfile(verification.data);
  }, [verification.data, profile, setProfile]);

  const emailVerified = profile?.emailVerified ?? false;
  const step = allowedStep(stepFromHash(location.hash), emailVerified);
  const go = (next: OnboardingStep) => navigate({ search: location.search, hash: `#${next}` });

  useEffect(() => {
    if (step !== 'verify-email' || emailVerified) return;
    const timer = window.setInterval(() => void queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY }), VERIFIED_POLL_MS);
    return () => window.clearInterval(timer);
  }, [step, emailVerified, queryClient]);

  // Spec 000 §4.3: a successful return from Checkout jumps to the add-device step.
  useEffect(() => {
    if (outcome === 'success' && step === 'subscription') navigate({ search: location.search, hash: '#add-device' }, { replace: true });
  }, [outcome, step, navigate, location.search]);
  useAwaitPaidPlan(outcome === 'success', subscription);

  if (!profile) return null;
  const isFree = profile.isFreeUser;

  async function complete() {
    if (!profile) return;
    setCompleting(true);
    try {
      await completeOnboarding(profile.id);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'Failed to complete the onboarding');
      setCompleting(false);
      return;
    }
    setProfile({ ...profile, onboardingCompleted: true });
    // Spec 000 §2.4: after completion the user goes to /dashboard; a free user to /devices.
    navigate(isFree ? '/devices' : '/dashboard', { replace: true });
  }

  const back = (from: OnboardingStep) => {
    const previous = previousStep(from);
    return previous ? () => go(previous) : null;
  };
  const paidPlan = subscription !== null && (PAID_PLANS as readonly string[]).includes(subscription.plan);

  let content;
  switch (step) {
    case 'welcome':
      content = <WelcomeStep onStart={() => go('verify-email')} />;
      break;
    case 'verify-email': {
      const state: Verification = verification.isFetching
        ? { state: 'verifying' }
        : verification.isError
          ? { state: 'failed', message: verification.error instanceof ApiError && verification.error.status < 500 && verification.error.status !== 0 ? verification.error.message : VERIFY_FAILED }
          : { state: 'idle' };
      content = <VerifyEmailStep email={profile.email} verified={emailVerified} verification={state} onNext={() => go('details')} onBack={() => go('welcome')} />;
      break;
    }
    case 'details':
      content = <DetailsStep profile={profile} onBack={() => go('verify-email')} onNext={(saved) => {
        if (saved) setProfile(saved);
        go('subscription');
      }} />;
      break;
    case 'subscription':
      content = (
        <SubscriptionStep
          subscription={subscription}
          outcome={outcome}
          // Spec 000 §2.4: Back is hidden here unless the user already has a subscription.
          onBack={isFree || hasValidSubscription(subscription) ? back('subscription') : null}
          onNext={isFree ? () => void complete() : () => go('add-device')}
          onFreeChosen={() => go('add-device')}
        />
      );
      break;
    case 'add-device':
      content = (
        <AddDeviceStep
          apiKey={profile.apiKey}
          callOffer={outcome === 'success' && paidPlan ? <CallOffer /> : null}
          onNext={() => go('get-started')}
          onBack={() => go('subscription')}
        />
      );
      break;
    case 'get-started':
      content = <GetStartedStep completing={completing} onComplete={() => void complete()} onBack={() => go('add-device')} />;
      break;
  }

  const shownSteps = ONBOARDING_STEPS.filter((s) => s !== 'welcome' && !(isFree && (s === 'add-device' || s === 'get-started')));
  return (
    <div className="onboarding-screen">
      <header className="onboarding-header">
        <Logo size={24} />
        {step !== 'welcome' && (
          <ol className="onboarding-stepper" aria-label="Onboarding steps">
            {shownSteps.map((s, index) => {
              const position = ONBOARDING_STEPS.indexOf(s) - ONBOARDING_STEPS.indexOf(step);
              return (
                <li key={s} className={position < 0 ? 'is-done' : position === 0 ? 'is-current' : undefined} aria-current={position === 0 ? 'step' : undefined}>
                  <span className="onboarding-stepper-number">{index + 1}</span>
                  <span className="onboarding-stepper-label">{STEP_LABELS[s]}</span>
                </li>
              );
            })}
          </ol>
        )}
        <Button variant="ghost" size="sm" icon={<LogOut size={14} aria-hidden="true" />} onClick={() => void logout()}>Logout</Button>
      </header>
      <main className={`onboarding-main${step === 'welcome' ? ' is-welcome' : ''}${step === 'subscription' && !isFree && !hasValidSubscription(subscription) ? ' is-wide' : ''}`}>{content}</main>
    </div>
  );
}

/** Spec 000 §4.3: after a paid checkout, the offer of a 1-on-1 onboarding call. */
function CallOffer() {
  const { bookDemoUrl } = usePublicConfig();
  return (
    <div className="onboarding-call-offer" role="note">
      <PhoneCall size={18} aria-hidden="true" />
      <div>
        <strong>Thank you for subscribing!</strong>
        <p>Book a free 1-on-1 onboarding call: we set up Spyglass with you and show you the features your team will use most.</p>
      </div>
      {bookDemoUrl && <a className="btn btn-secondary" href={bookDemoUrl} target="_blank" rel="noreferrer">Book a call</a>}
    </div>
  );
}
