import { Subscription } from '@spyglass/protocol';
import type { App } from '../../context';

/** Self-hosted: every account is a free user without limits (no payment provider is configured). */
export async function billingRoutes(app: App): Promise<void> {
  app.get('/billing/subscription', { schema: { response: { 200: Subscription } } }, async () => ({
    plan: 'free' as const,
    status: 'active' as const,
    billingCycle: null,
    billingPeriodStart: null,
    billingPeriodEnd: null,
    trafficUsed: 0,
    trafficLimit: null,
    numRequests: 0,
    canceledAt: null,
    trialEndsAt: null,
    isFreeUser: true,
  }));
}
