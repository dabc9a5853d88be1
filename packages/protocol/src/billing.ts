import { z } from 'zod';
import { Id, IsoDate } from './common';

export const PLANS = ['free', 'team', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLANS)[number];
/** The plans sold through the payment provider (the free plan needs no checkout). */
export const PAID_PLANS = ['team', 'pro', 'enterprise'] as const;
export type PaidPlanId = (typeof PAID_PLANS)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'canceled', 'expired'] as const;
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Spec 000 §9: the free trial of a hosted account, from sign-up, without a card. */
export const TRIAL_DAYS = 14;
export const TRIAL_MS = TRIAL_DAYS * 24 * 60 * 60 * 1000;
/** Spec 000 §5 and §9. */
export const CANCEL_REASON_MAX_LENGTH = 1000;
/** Spec 000 §9: the billing-period bar turns to warning above 75 % and danger above 95 %. */
export const BILLING_PERIOD_THRESHOLDS = { warning: 75, danger: 95 } as const;
/** Spec 000 §4.5: the pricing modal's price display animates in this many steps. */
export const PRICE_ANIMATION_STEPS = 20;

/**
 * Spec 000 §3. A self-hosted server (no payment provider) answers every account as a free user;
 * a hosted one answers the plan chosen, or, before any choice, status `expired` with the trial's
 * end: usable while that end is ahead (§4.4).
 */
export const Subscription = z.object({
  plan: z.enum(PLANS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  billingCycle: z.enum(BILLING_CYCLES).nullable(),
  billingPeriodStart: IsoDate.nullable(),
  billingPeriodEnd: IsoDate.nullable(),
  trafficUsed: z.number(),
  trafficLimit: z.number().nullable(),
  numRequests: z.number(),
  /** Set once the user asked to cancel: access continues until billingPeriodEnd. */
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

/** Spec 000 §4.4: a trial is expired once its end date is past. */
export function isTrialExpired(s: Pick<Subscription, 'trialEndsAt'>, now = Date.now()): boolean {
  return s.trialEndsAt !== null && Date.parse(s.trialEndsAt) <= now;
}

/** Spec 000 §4.4: cancel is offered for active or trialing subscriptions not already canceled. */
export const canCancel = (s: Subscription): boolean =>
  !s.isFreeUser && s.plan !== 'free' && (s.status === 'active' || s.status === 'trialing') && s.canceledAt === null;

/** Spec 000 §4.4: Manage Subscription for non-free plans that are active or trialing. */
export const canManage = (s: Subscription): boolean =>
  !s.isFreeUser && s.plan !== 'free' && (s.status === 'active' || s.status === 'trialing');

/** How much of the billing period has passed, 0–100 (the billing-period bar). */
export function billingPeriodPercent(s: Pick<Subscription, 'billingPeriodStart' | 'billingPeriodEnd'>, now = Date.now()): number | null {
  if (!s.billingPeriodStart || !s.billingPeriodEnd) return null;
  const start = Date.parse(s.billingPeriodStart);
  const end = Date.parse(s.billingPeriodEnd);
  if (end <= start) return 100;
  return Math.min(100, Math.max(0, ((now - start) / (end - start)) * 100));
}

/** One billing cycle of a plan: the price in whole currency units and its features as HTML. */
export const PlanCycle = z.object({
  price: z.number().nonnegative(),
  features: z.array(z.string().max(2000)).max(50),
});
export type PlanCycle = z.infer<typeof PlanCycle>;

/** Spec 000 §3 (Plan) with what metering needs: the traffic limit and the session history. */
export const Plan = z.object({
  id: z.enum(PLANS),
  name: z.string().min(1).max(100),
  hasFreeTrial: z.boolean(),
  /** Bytes per billing period; null: no limit. */
  trafficLimit: z.number().int().positive().nullable(),
  /** Days saved sessions and captured items are kept (spec 000 §4.5: 7 Team, 30 Pro, 365 Enterprise). */
  sessionHistoryDays: z.number().int().positive(),
  currency: z.string().regex(/^[a-z]{3}$/),
  billingCycles: z.object({ monthly: PlanCycle, yearly: PlanCycle }),
});
export type Plan = z.infer<typeof Plan>;

/** A special offer (`?special-offer=CODE`): a discount in percent on every paid plan's prices. */
export const SpecialOffer = z.object({ discountPercent: z.number().min(0).max(100) });

/** The plans configuration file (BILLING_PLANS_FILE): every plan, and the special offers. */
export const PlansConfig = z.object({
  plans: z.array(Plan).min(1).refine((plans) => new Set(plans.map((p) => p.id)).size === plans.length, 'Plan ids must be unique'),
  specialOffers: z.record(z.string().min(1).max(100), SpecialOffer).default({}),
});
export type PlansConfig = z.infer<typeof PlansConfig>;

export const PlansQuery = z.object({ 'special-offer': z.string().max(100).optional() });
export const PlansResponse = z.object({ plans: z.array(Plan) });
export type PlansResponse = z.infer<typeof PlansResponse>;

/** Checkout returns land on our own pages only: an absolute http(s) URL. */
const ReturnUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const CheckoutSessionBody = z.strictObject({
  tier: z.enum(PAID_PLANS, { error: 'Choose the Team, Pro or Enterprise plan' }),
  billingCycle: z.enum(BILLING_CYCLES, { error: 'Choose monthly or yearly billing' }),
  successUrl: ReturnUrl,
  cancelUrl: ReturnUrl,
  specialOffer: z.string().max(100).optional(),
});
export type CheckoutSessionBody = z.infer<typeof CheckoutSessionBody>;
/** `sessionId` as the spec names it, and the Checkout page the browser goes to. */
export const CheckoutSessionResponse = z.object({ sessionId: z.string(), url: z.string() });

export const CancelSubscriptionBody = z.strictObject({
  reason: z.string().max(CANCEL_REASON_MAX_LENGTH, `The reason can be at most ${CANCEL_REASON_MAX_LENGTH} characters long`).optional(),
});

export const FreeSubscriptionBody = z.strictObject({
  userId: Id,
  billingCycle: z.enum(BILLING_CYCLES).optional(),
  specialOffer: z.string().max(100).nullish(),
});

export const CustomerPortalResponse = z.object({ url: z.string() });

/** Spec 000 §8 (Billing). */
export const BILLING_ERRORS = {
  reactivate: 'Failed to reactivate subscription',
  portalSession: 'Failed to create Stripe customer portal session',
  portalNotConfigured: 'Customer portal is not configured yet',
  portalUrl: 'Failed to get Stripe portal URL',
  portalOpen: 'Failed to open Stripe portal',
  contactSupport: 'Please contact support to manage your subscription',
} as const;
