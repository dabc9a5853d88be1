import { z } from 'zod';
import {
  DELETE_ACCOUNT_CONFIRMATION, FEATURE_FLAGS, LIMITS, ONBOARDING_COMPANY_SIZES, ONBOARDING_ROLES, ONBOARDING_SOURCES,
  ONBOARDING_USE_CASES, WELCOME_TOURS,
} from './constants';
import { Email, Id, IsoDate, whenMissing } from './common';
import { Settings } from './settings';

export const AUTH_PROVIDERS = ['email', 'google'] as const;

export const FeatureFlags = z.object(
  Object.fromEntries(FEATURE_FLAGS.map((f) => [f, z.boolean()])) as Record<(typeof FEATURE_FLAGS)[number], z.ZodBoolean>,
);
export type FeatureFlags = z.infer<typeof FeatureFlags>;

/** The signed-in user's profile (spec 000 §3). */
export const Profile = z.object({
  id: Id,
  email: z.string(),
  emailVerified: z.boolean(),
  apiKey: z.string(),
  authProvider: z.enum(AUTH_PROVIDERS),
  isAdmin: z.boolean(),
  isFreeUser: z.boolean(),
  isLockedUser: z.boolean(),
  isDemoUser: z.boolean(),
  shouldBlockRequests: z.boolean(),
  onboardingCompleted: z.boolean(),
  loadBalancerGroup: z.string().nullable(),
  featureFlags: FeatureFlags,
  settings: Settings,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  companySize: z.string().nullable(),
  role: z.string().nullable(),
  signupSource: z.string().nullable(),
  signupUsecases: z.array(z.string()),
  timezone: z.string().nullable(),
  referrer: z.string().nullable(),
  createdAt: IsoDate,
});
export type Profile = z.infer<typeof Profile>;

/**
 * An e-mail change proves the owner is present: the current password of an e-mail account, or a
 * Google ID token from a sign-in made just now for a Google account. The service says which is
 * missing, since only it knows the account's provider.
 */
export const UpdateEmailBody = z.strictObject({
  email: Email,
  currentPassword: z.string().max(LIMITS.password).optional(),
  googleToken: z.string().min(1).max(8192).optional(),
});

/** The change waits for the link mailed to the new address; the account keeps its address until then. */
export const UpdateEmailResponse = z.object({ pendingEmail: z.string() });

export const DeleteAccountBody = z.strictObject({
  confirmation: z.literal(DELETE_ACCOUNT_CONFIRMATION, { error: `Please type "${DELETE_ACCOUNT_CONFIRMATION}" to confirm` }),
});

/** Missing, wrongly typed or blank: each answers the same text. */
const requiredName = (message: string) => z.string({ error: whenMissing(message) }).trim().min(1, message).max(LIMITS.name);

export const DetailsBody = z.strictObject({
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  company: requiredName('Company is required'),
  companySize: z.enum(ONBOARDING_COMPANY_SIZES, { error: 'Company size is required' }),
  role: z.enum(ONBOARDING_ROLES, { error: 'Role is required' }),
});
export type DetailsBody = z.infer<typeof DetailsBody>;

export const OnboardingResponsesBody = z.strictObject({
  signupSource: z.enum(ONBOARDING_SOURCES, { error: 'Please select a source' }),
  signupUsecases: z.array(z.enum(ONBOARDING_USE_CASES), { error: whenMissing('Please select a use case') })
    .min(1, 'Please select a use case').max(ONBOARDING_USE_CASES.length),
});
export type OnboardingResponsesBody = z.infer<typeof OnboardingResponsesBody>;

export const CompleteOnboardingBody = z.strictObject({ userId: Id });

export const TOUR_IDS = Object.keys(WELCOME_TOURS) as (keyof typeof WELCOME_TOURS)[];
export const TourId = z.enum(TOUR_IDS as [keyof typeof WELCOME_TOURS, ...(keyof typeof WELCOME_TOURS)[]]);
export const TourStep = z.strictObject({
  id: z.string().min(1).max(100),
  status: z.enum(['pending', 'completed']),
  completedAt: IsoDate.nullable().optional(),
});
export type TourStep = z.infer<typeof TourStep>;
export const WelcomeTour = z.strictObject({ id: TourId, steps: z.array(TourStep).max(20) });
export type WelcomeTour = z.infer<typeof WelcomeTour>;
export const WelcomeTourBody = z.strictObject({ welcomeTour: z.array(WelcomeTour).max(TOUR_IDS.length) });
export const WelcomeTourStepBody = z.strictObject({ tourId: TourId, stepId: z.string().min(1).max(100), stepData: TourStep });

export const DemoUserBody = z.strictObject({ timezone: z.string().max(LIMITS.timezone).optional() });
export const DemoUserResponse = z.object({ email: z.string(), password: z.string() });
