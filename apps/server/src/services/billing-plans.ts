import fs from 'node:fs';
import { DEVICE_LIMIT, PlansConfig, type Plan, type PlanId } from '@spyglass/protocol';

const GB = 1_000_000_000;

const features = (traffic: string, historyDays: number, extra: string[]) => [
  `<strong>${traffic}</strong> of traffic per month`,
  `<strong>${historyDays} days</strong> of session history`,
  `Up to <strong>${DEVICE_LIMIT}</strong> devices`,
  ...extra,
];

/** Yearly billing costs ten months: two months free (spec 000 §4.5). */
const cycles = (monthly: number, featureList: string[]) => ({
  monthly: { price: monthly, features: featureList },
  yearly: { price: monthly * 10, features: featureList },
});

/** The plans a hosted server sells when BILLING_PLANS_FILE names none. */
export const DEFAULT_PLANS_CONFIG: PlansConfig = {
  plans: [
    {
      id: 'free', name: 'Free', hasFreeTrial: false, trafficLimit: 100_000_000, sessionHistoryDays: 7, currency: 'usd',
      billingCycles: cycles(0, features('100 MB', 7, ['Live requests, logs and events'])),
    },
    {
      id: 'team', name: 'Team', hasFreeTrial: true, trafficLimit: 5 * GB, sessionHistoryDays: 7, currency: 'usd',
      billingCycles: cycles(19, features('5 GB', 7, ['One-click mocking and mocked routes', 'Shareable sessions'])),
    },
    {
      id: 'pro', name: 'Pro', hasFreeTrial: true, trafficLimit: 25 * GB, sessionHistoryDays: 30, currency: 'usd',
      billingCycles: cycles(49, features('25 GB', 30, ['Everything in Team', 'Remote screen capture', 'Dynamic mock handlers'])),
    },
    {
      id: 'enterprise', name: 'Enterprise', hasFreeTrial: true, trafficLimit: 100 * GB, sessionHistoryDays: 365, currency: 'usd',
      billingCycles: cycles(149, features('100 GB', 365, ['Everything in Pro', 'Priority support', '1-on-1 onboarding call'])),
    },
  ],
  specialOffers: {},
};

/** Reads and checks the plans file; a broken file stops the start with the reason. */
export function loadPlansConfig(file: string | null): PlansConfig {
  if (!file) return DEFAULT_PLANS_CONFIG;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`BILLING_PLANS_FILE ${file} could not be read as JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = PlansConfig.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`BILLING_PLANS_FILE ${file} is not a valid plans file: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** The plans with a special offer's discount applied to the paid ones (an unknown code changes nothing). */
export function plansWithOffer(config: PlansConfig, specialOffer: string | null | undefined): Plan[] {
  const offer = specialOffer ? config.specialOffers[specialOffer] : undefined;
  if (!offer) return config.plans;
  const discounted = (price: number) => Math.round(price * (100 - offer.discountPercent)) / 100;
  return config.plans.map((plan) => ({
    ...plan,
    billingCycles: {
      monthly: { ...plan.billingCycles.monthly, price: discounted(plan.billingCycles.monthly.price) },
      yearly: { ...plan.billingCycles.yearly, price: discounted(plan.billingCycles.yearly.price) },
    },
  }));
}

/** Looks a plan up by id; metering and retention read the traffic limit and session history here. */
export function findPlan(config: PlansConfig, id: PlanId): Plan | undefined {
  return config.plans.find((plan) => plan.id === id);
}
