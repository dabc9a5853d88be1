/** Spec 000 §2.4: the steps in order, each named by the page's hash. */
export const ONBOARDING_STEPS = ['welcome', 'verify-email', 'details', 'subscription', 'add-device', 'get-started'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const STEP_LABELS: Record<OnboardingStep, string> = {
  welcome: 'Welcome',
  'verify-email': 'Verify email',
  details: 'Your details',
  subscription: 'Subscription',
  'add-device': 'Add device',
  'get-started': 'Get started',
};

export function stepFromHash(hash: string): OnboardingStep {
  const name = hash.replace(/^#/, '');
  return (ONBOARDING_STEPS as readonly string[]).includes(name) ? (name as OnboardingStep) : 'welcome';
}

/** A step past verification needs a verified address: it shows the verification step instead. */
export function allowedStep(step: OnboardingStep, emailVerified: boolean): OnboardingStep {
  return !emailVerified && ONBOARDING_STEPS.indexOf(step) > ONBOARDING_STEPS.indexOf('verify-email') ? 'verify-email' : step;
}

export const nextStep = (step: OnboardingStep): OnboardingStep | null => ONBOARDING_STEPS[ONBOARDING_STEPS.indexOf(step) + 1] ?? null;
export const previousStep = (step: OnboardingStep): OnboardingStep | null => ONBOARDING_STEPS[ONBOARDING_STEPS.indexOf(step) - 1] ?? null;
