import { z } from 'zod';
import { Profile, SuccessBody, type DetailsBody, type OnboardingResponsesBody } from '@spyglass/protocol';
import { api } from '../../lib/api';

export const saveDetails = (details: DetailsBody) =>
  api.post('/user/details', details, z.object({ profile: Profile })).then((r) => r.profile);

export const saveOnboardingResponses = (responses: OnboardingResponsesBody) => api.post('/user/onboarding-responses', responses, SuccessBody);

export const completeOnboarding = (userId: string) => api.post('/user/complete-onboarding', { userId }, SuccessBody);
