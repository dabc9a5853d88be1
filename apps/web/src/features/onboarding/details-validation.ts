import {
  ONBOARDING_COMPANY_SIZES, ONBOARDING_ROLES, ONBOARDING_SOURCES, ONBOARDING_USE_CASES, type DetailsBody, type OnboardingResponsesBody,
} from '@spyglass/protocol';

export interface DetailsForm {
  firstName: string;
  lastName: string;
  company: string;
  companySize: string;
  role: string;
  signupSource: string;
  signupUsecases: string[];
}

export type DetailsErrors = Partial<Record<keyof DetailsForm, string>>;

const oneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** Spec 000 §5 (Onboarding details): every field is required, each with its own message. */
export function validateDetails(form: DetailsForm): { errors: DetailsErrors } | { details: DetailsBody; responses: OnboardingResponsesBody } {
  const errors: DetailsErrors = {};
  if (!form.firstName.trim()) errors.firstName = 'First name is required';
  if (!form.lastName.trim()) errors.lastName = 'Last name is required';
  if (!form.company.trim()) errors.company = 'Company is required';
  if (!oneOf(ONBOARDING_COMPANY_SIZES, form.companySize)) errors.companySize = 'Company size is required';
  if (!oneOf(ONBOARDING_ROLES, form.role)) errors.role = 'Role is required';
  if (!oneOf(ONBOARDING_SOURCES, form.signupSource)) errors.signupSource = 'Please select a source';
  const usecases = form.signupUsecases.filter((u) => oneOf(ONBOARDING_USE_CASES, u));
  if (usecases.length === 0) errors.signupUsecases = 'Please select a use case';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    details: {
      firstName: form.firstName.trim(), lastName: form.lastName.trim(), company: form.company.trim(),
      companySize: form.companySize as DetailsBody['companySize'], role: form.role as DetailsBody['role'],
    },
    responses: { signupSource: form.signupSource as OnboardingResponsesBody['signupSource'], signupUsecases: usecases as OnboardingResponsesBody['signupUsecases'] },
  };
}

/** What the option lists show; the stored values are the spec's (spec 000 §3). */
export const ROLE_LABELS: Record<(typeof ONBOARDING_ROLES)[number], string> = {
  developer: 'Developer', 'tech-lead': 'Tech lead', 'engineering-manager': 'Engineering manager', cto: 'CTO', founder: 'Founder',
  'solo-preneur': 'Solo-preneur', 'product-manager': 'Product manager', 'qa-engineer': 'QA engineer', devops: 'DevOps',
  'mobile-developer': 'Mobile developer', 'frontend-developer': 'Frontend developer', 'backend-developer': 'Backend developer',
  'fullstack-developer': 'Full-stack developer', other: 'Other',
};
export const SOURCE_LABELS: Record<(typeof ONBOARDING_SOURCES)[number], string> = {
  google: 'Google', x: 'X (Twitter)', friend: 'A friend or colleague', ai: 'An AI assistant', product_hunt: 'Product Hunt', reddit: 'Reddit',
  github: 'GitHub', youtube: 'YouTube', linkedin: 'LinkedIn', facebook: 'Facebook', instagram: 'Instagram', tiktok: 'TikTok', other: 'Other',
};
export const USE_CASE_LABELS: Record<(typeof ONBOARDING_USE_CASES)[number], string> = {
  remote_logs: 'Remote logs', mock_requests: 'Mock requests', remote_support: 'Remote support', debugging: 'Debugging',
  analytics: 'Analytics', other: 'Other',
};
