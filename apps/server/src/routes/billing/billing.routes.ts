import {
  CancelSubscriptionBody, CheckoutSessionBody, CheckoutSessionResponse, CustomerPortalResponse, FreeSubscriptionBody, InvoicesResponse,
  PlansQuery, PlansResponse, Subscription, UsageQuery, UsageResponse,
} from '@spyglass/protocol';
import { z } from 'zod';
import type { App } from '../../context';
import { unsubscribeFromUsageReport, usageByHour } from '../../services/usage.service';

/** The signed-in account's subscription (spec 000 §7.4). */
export async function billingRoutes(app: App): Promise<void> {
  const { billing } = app.ctx;

  app.get('/billing/subscription', { schema: { response: { 200: Subscription } } }, async (req) => billing.subscription(req.user));

  app.post('/billing/create-checkout-session', { schema: { body: CheckoutSessionBody, response: { 200: CheckoutSessionResponse } } },
    async (req) => billing.createCheckoutSession(req.user, req.body));

  app.post('/billing/customer-portal', { schema: { response: { 200: CustomerPortalResponse } } }, async (req) => billing.customerPortal(req.user));

  // nullish: the reason is optional, and a call without a body reaches the validator as null.
  app.post('/billing/cancel', { schema: { body: CancelSubscriptionBody.nullish(), response: { 200: Subscription } } },
    async (req) => billing.cancel(req.user, req.body?.reason || undefined));

  app.post('/billing/reactivate', { schema: { response: { 200: Subscription } } }, async (req) => billing.reactivate(req.user));

  app.post('/billing/free-subscription', { schema: { body: FreeSubscriptionBody, response: { 200: Subscription } } },
    async (req) => billing.chooseFree(req.user, req.body.userId, req.body.billingCycle));

  app.get('/billing/usage', { schema: { querystring: UsageQuery, response: { 200: UsageResponse } } },
    async (req) => ({ requestsGroupedByHour: await usageByHour(app.ctx.db, req.user.id, req.query.days, app.ctx.now()) }));

  app.get('/billing/invoices', { schema: { response: { 200: InvoicesResponse } } }, async (req) => ({ invoices: await billing.invoices(req.user) }));
}

/** Calls without a token: the price list, and Stripe's webhooks (authenticated by their signature). */
export async function publicBillingRoutes(app: App): Promise<void> {
  const { billing } = app.ctx;

  app.get('/billing/plans', { schema: { querystring: PlansQuery, response: { 200: PlansResponse } } },
    async (req) => ({ plans: billing.plans(req.query['special-offer']) }));

  // The weekly usage report's link (spec 000 §2.5): opened from a mail, so it answers a sentence.
  app.get('/usage-report/unsubscribe', { schema: { hide: true, querystring: z.object({ token: z.string().min(1).max(200) }) } }, async (req, reply) => {
    const done = await unsubscribeFromUsageReport(app.ctx.db, req.query.token, app.ctx.now());
    return reply.code(done ? 200 : 400).type('text/plain; charset=utf-8')
      .send(done ? 'You will no longer receive the weekly usage report. Turn it on again in Settings.' : 'This link is invalid or has expired');
  });

  await app.register(async (webhooks: App) => {
    // The signature covers the exact bytes Stripe sent: this context keeps the body raw.
    webhooks.removeContentTypeParser('application/json');
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    webhooks.post('/billing/webhook', { schema: { hide: true, response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) } } },
      async (req) => billing.handleWebhook(req.body as Buffer, req.headers['stripe-signature'] as string | undefined));
  });
}
