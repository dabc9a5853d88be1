import { z } from 'zod';
import { IsoDate } from './common';

export const PLANS = ['free', 'team', 'pro', 'enterprise'] as const;
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'canceled', 'expired'] as const;
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;

/** Spec 000 §3. A self-hosted server answers a free plan with no limit. */
export const Subscription = z.object({
  plan: z.enum(PLANS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  billingCycle: z.enum(BILLING_CYCLES).nullable(),
  billingPeriodStart: IsoDate.nullable(),
  billingPeriodEnd: IsoDate.nullable(),
  trafficUsed: z.number(),
  trafficLimit: z.number().nullable(),
  numRequests: z.number(),
  canceledAt: IsoDate.nullable(),
  trialEndsAt: IsoDate.nullable(),
  isFreeUser: z.boolean(),
});
export type Subscription = z.infer<typeof Subscription>;

/** Spec 000 §4.4: a subscription is usable when active or trialing, in trial, on a demo host or free. */
export function isSubscriptionUsable(s: Subscription, now = Date.now(), isDemoHost = false): boolean {
  return s.isFreeUser || isDemoHost || s.status === 'active' || s.status === 'trialing'
    || (s.trialEndsAt !== null && Date.parse(s.trialEndsAt) > now);
}
