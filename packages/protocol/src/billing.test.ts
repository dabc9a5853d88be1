import { describe, expect, it } from 'vitest';
import { billingPeriodPercent, canCancel, canManage, isSubscriptionUsable, isTrialExpired, type Subscription } from './billing';

const NOW = Date.parse('2026-03-10T00:00:00Z');
const base: Subscription = {
  plan: 'team', status: 'active', billingCycle: 'monthly', billingPeriodStart: '2026-03-01T00:00:00.000Z', billingPeriodEnd: '2026-03-31T00:00:00.000Z',
  trafficUsed: 0, trafficLimit: 5e9, numRequests: 0, canceledAt: null, trialEndsAt: null, isFreeUser: false,
};

describe('subscription rules (spec 000 §4.4)', () => {
  it('is usable when active or trialing, in a trial, on a demo host or free', () => {
    expect(isSubscriptionUsable(base, NOW)).toBe(true);
    expect(isSubscriptionUsable({ ...base, status: 'trialing' }, NOW)).toBe(true);
    const expired = { ...base, status: 'expired' as const };
    expect(isSubscriptionUsable(expired, NOW)).toBe(false);
    expect(isSubscriptionUsable({ ...expired, trialEndsAt: '2026-03-11T00:00:00Z' }, NOW)).toBe(true);
    expect(isSubscriptionUsable({ ...expired, trialEndsAt: '2026-03-09T00:00:00Z' }, NOW)).toBe(false);
    expect(isSubscriptionUsable(expired, NOW, true)).toBe(true);
    expect(isSubscriptionUsable({ ...expired, isFreeUser: true }, NOW)).toBe(true);
    expect(isSubscriptionUsable({ ...base, status: 'canceled' }, NOW)).toBe(false);
  });

  it('calls a trial expired once its end is past', () => {
    expect(isTrialExpired({ trialEndsAt: '2026-03-09T00:00:00Z' }, NOW)).toBe(true);
    expect(isTrialExpired({ trialEndsAt: '2026-03-11T00:00:00Z' }, NOW)).toBe(false);
    expect(isTrialExpired({ trialEndsAt: null }, NOW)).toBe(false);
  });

  it('offers cancel and manage for paid plans that are active or trialing; cancel only once', () => {
    expect(canCancel(base)).toBe(true);
    expect(canCancel({ ...base, canceledAt: '2026-03-05T00:00:00Z' })).toBe(false);
    expect(canManage({ ...base, canceledAt: '2026-03-05T00:00:00Z' })).toBe(true);
    expect(canCancel({ ...base, plan: 'free' })).toBe(false);
    expect(canManage({ ...base, status: 'expired' })).toBe(false);
    expect(canCancel({ ...base, isFreeUser: true })).toBe(false);
  });

  it('measures the billing period for its bar', () => {
    expect(billingPeriodPercent(base, NOW)).toBeCloseTo(30, 5);
    expect(billingPeriodPercent(base, Date.parse('2026-04-02T00:00:00Z'))).toBe(100);
    expect(billingPeriodPercent({ billingPeriodStart: null, billingPeriodEnd: null }, NOW)).toBeNull();
  });
});
