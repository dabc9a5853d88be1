import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIAL_MS } from '@spyglass/protocol';
import { DEFAULT_PLANS_CONFIG } from '../src/services/billing-plans';
import { apiClient, describeApi, GOOD_PASSWORD, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';
import { TestDevice, itemId, logItem } from './device-protocol-client';

const DAY_MS = 24 * 60 * 60 * 1000;

describeApi('billing, self-hosted (no STRIPE_SECRET_KEY)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { stripe: null } });
  });
  afterAll(() => server?.close());

  it('makes every account a free user with no subscription controls', async () => {
    const { api } = await signUp(server.url);
    expect((await api.get('/v1/user')).body.isFreeUser).toBe(true);
    const subscription = await api.get('/v1/billing/subscription');
    expect(subscription.body).toMatchObject({ plan: 'free', status: 'active', isFreeUser: true, trialEndsAt: null });
    expect((await api.get('/v1/devices')).status).toBe(200);
    const checkout = await api.post('/v1/billing/create-checkout-session', {
      tier: 'team', billingCycle: 'monthly', successUrl: `${server.url}/onboarding`, cancelUrl: `${server.url}/onboarding`,
    });
    expect(checkout.status).toBe(400);
    expect(checkout.body.error).toBe('Subscriptions are not offered on this server: every account is free');
    expect((await api.post('/v1/billing/webhook', {})).status).toBe(404);
  });

  it('answers the plans without a token', async () => {
    const res = await apiClient(server.url).get('/v1/billing/plans');
    expect(res.status).toBe(200);
    expect(res.body.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'team', 'pro', 'enterprise']);
    expect(res.body.plans.map((p: { sessionHistoryDays: number }) => p.sessionHistoryDays)).toEqual([7, 7, 30, 365]);
  });
});

describeApi('billing, hosted with Stripe', () => {
  let server: TestServer;
  let stripe: StripeStandIn;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  let plansDir: string | undefined;
  const checkoutBody = (tier = 'team', billingCycle = 'monthly') => ({
    tier, billingCycle, successUrl: 'http://127.0.0.1/onboarding?subscription=success', cancelUrl: 'http://127.0.0.1/onboarding?subscription=canceled',
  });

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    stripe.now = () => clock;
    plansDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-'));
    const plansFile = path.join(plansDir, 'plans.json');
    fs.writeFileSync(plansFile, JSON.stringify({ ...DEFAULT_PLANS_CONFIG, specialOffers: { LAUNCH: { discountPercent: 50 } } }));
    server = await startTestServer({
      now: () => clock,
      config: {
        stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url }, publicUrl: 'http://127.0.0.1', plansFile,
      },
    });
    stripe.webhookUrl = `${server.url}/v1/billing/webhook`;
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    if (plansDir) fs.rmSync(plansDir, { recursive: true, force: true });
  });

  it('answers the plans of the plans file, with the prices of a special offer', async () => {
    const anyone = apiClient(server.url);
    const team = (body: { plans: Array<{ id: string; billingCycles: { monthly: { price: number } } }> }) =>
      body.plans.find((p) => p.id === 'team')!.billingCycles.monthly.price;
    expect(team((await anyone.get('/v1/billing/plans')).body)).toBe(19);
    expect(team((await anyone.get('/v1/billing/plans?special-offer=LAUNCH')).body)).toBe(9.5);
    expect(team((await anyone.get('/v1/billing/plans?special-offer=unknown')).body)).toBe(19);

    const { api } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', { ...checkoutBody(), specialOffer: 'LAUNCH' });
    expect(stripe.checkoutSessions.get(checkout.body.sessionId)!.params.get('line_items[0][price_data][unit_amount]')).toBe('950');
  });

  /** After the clock jumped ahead: a fresh sign-in, as sign-in tokens expire when idle. */
  async function signIn(email: string): Promise<ApiClient> {
    const res = await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
    return apiClient(server.url, res.body.token);
  }

  /** Signs up and subscribes through Checkout; answers the client and the stand-in's subscription id. */
  async function subscribed(tier = 'team'): Promise<{ api: ApiClient; email: string; subscriptionId: string; userId: string }> {
    const { api, profile, email } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', { ...checkoutBody(tier), successUrl: 'http://127.0.0.1/onboarding?subscription=success' , cancelUrl: 'http://127.0.0.1/onboarding' });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    const subscription = await stripe.completeCheckout(checkout.body.sessionId);
    return { api, email, subscriptionId: subscription.id, userId: profile.id };
  }

  it('gives a new account a 14-day trial, then answers 402 trialExpired on protected calls', async () => {
    const start = clock;
    const { api: first, profile, email } = await signUp(server.url);
    let api = first;
    expect(profile.isFreeUser).toBe(false);
    const trial = (await api.get('/v1/billing/subscription')).body;
    expect(trial).toMatchObject({ plan: 'free', status: 'expired', isFreeUser: false, trialEndsAt: new Date(start + TRIAL_MS).toISOString() });
    expect((await api.get('/v1/devices')).status).toBe(200);
    const deviceId = itemId('trial');
    const during = await TestDevice.online(server.url, profile.apiKey, deviceId);
    during.client.sendItems(1, [logItem('during the trial')]);
    expect(await during.client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    await during.client.close();

    clock = start + 14 * DAY_MS + 1000;
    try {
      api = await signIn(email);
      const devices = await api.get('/v1/devices');
      expect(devices.status).toBe(402);
      expect(devices.body).toEqual({ error: 'Your trial has expired. Please consider upgrading to a paid plan', trialExpired: true });
      expect((await api.get('/v1/sessions')).status).toBe(402);
      // What the user needs to upgrade stays open.
      expect((await api.get('/v1/user')).status).toBe(200);
      expect((await api.get('/v1/billing/subscription')).status).toBe(200);
      // Its devices are refused too: nothing more is stored, and they are told to ask again later.
      const after = await TestDevice.online(server.url, profile.apiKey, deviceId);
      const refusedItem = logItem('after the trial');
      after.client.sendItems(2, [refusedItem]);
      expect(await after.client.ack(2)).toMatchObject({
        type: 'error', code: 'quota_exceeded', seq: 2, message: 'Your trial has expired. Please consider upgrading to a paid plan', retryAfterMs: 30_000,
      });
      await after.client.close();
      clock = start;
      const stored = await api.get(`/v1/requests?deviceId=${encodeURIComponent(deviceId)}`);
      expect(stored.status).toBe(200);
      expect(stored.body.items.map((r: { id: string }) => r.id)).not.toContain(refusedItem.id);
      expect(stored.body.items).toHaveLength(1);
    } finally {
      clock = start;
    }
  });

  it('starts Checkout for a plan with the rest of the trial and no card, and only the webhook changes the plan', async () => {
    const { api, profile } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', { ...checkoutBody(), successUrl: 'http://127.0.0.1/onboarding?subscription=success', cancelUrl: 'http://127.0.0.1/onboarding' });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toBe(`${stripe.url}/checkout/${checkout.body.sessionId}`);
    const params = stripe.checkoutSessions.get(checkout.body.sessionId)!.params;
    expect(params.get('subscription_data[trial_period_days]')).toBe('14');
    expect(params.get('payment_method_collection')).toBe('if_required');
    expect(params.get('line_items[0][price_data][unit_amount]')).toBe('1900');
    expect(params.get('client_reference_id')).toBe(profile.id);
    // Coming back from Checkout proves nothing: the plan is unchanged until Stripe says so.
    expect((await api.get('/v1/billing/subscription')).body).toMatchObject({ plan: 'free', status: 'expired' });

    await stripe.completeCheckout(checkout.body.sessionId);
    const subscription = (await api.get('/v1/billing/subscription')).body;
    expect(subscription).toMatchObject({ plan: 'team', status: 'trialing', billingCycle: 'monthly', trafficLimit: 5_000_000_000, canceledAt: null });
    expect(Date.parse(subscription.trialEndsAt)).toBeGreaterThan(clock);

    // A second checkout while subscribed is refused.
    const again = await api.post('/v1/billing/create-checkout-session', { ...checkoutBody('pro'), successUrl: 'http://127.0.0.1/x', cancelUrl: 'http://127.0.0.1/x' });
    expect(again.status).toBe(409);
  });

  it('refuses return URLs of other sites and unknown tiers', async () => {
    const { api } = await signUp(server.url);
    const elsewhere = await api.post('/v1/billing/create-checkout-session', { ...checkoutBody(), successUrl: 'https://evil.example/steal', cancelUrl: 'http://127.0.0.1/x' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('Checkout can only return to this site');
    expect((await api.post('/v1/billing/create-checkout-session', { ...checkoutBody('free') })).status).toBe(400);
  });

  it('cancels with a reason at most 1000 characters long and keeps access until the period ends', async () => {
    const { api: first, email, subscriptionId } = await subscribed();
    let api = first;
    const tooLong = await api.post('/v1/billing/cancel', { reason: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('The reason can be at most 1000 characters long');

    const canceled = await api.post('/v1/billing/cancel', { reason: 'x'.repeat(1000) });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('trialing');
    expect(canceled.body.canceledAt).toBe(new Date(clock).toISOString());
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    expect((await api.get('/v1/devices')).status).toBe(200);

    const start = clock;
    clock = start + 13 * DAY_MS;
    try {
      api = await signIn(email);
      expect((await api.get('/v1/devices')).status).toBe(200);
      await stripe.endSubscription(subscriptionId);
      expect((await api.get('/v1/billing/subscription')).body).toMatchObject({ plan: 'team', status: 'canceled' });
      clock = start + 15 * DAY_MS;
      api = await signIn(email);
      expect((await api.get('/v1/devices')).status).toBe(402);
    } finally {
      clock = start;
    }
  });

  it('reactivates a canceled subscription before its period ends', async () => {
    const { api, subscriptionId } = await subscribed('pro');
    expect((await api.post('/v1/billing/reactivate')).status).toBe(400);
    await api.post('/v1/billing/cancel', { reason: 'too expensive' });
    const reactivated = await api.post('/v1/billing/reactivate');
    expect(reactivated.status).toBe(200);
    expect(reactivated.body).toMatchObject({ plan: 'pro', status: 'trialing', canceledAt: null });
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
  });

  it('verifies webhook signatures, refuses forged and replayed deliveries, and applies each event once', async () => {
    const { api, subscriptionId } = await subscribed();
    const subscription = stripe.subscriptions.get(subscriptionId)!;
    subscription.status = 'active';
    const event = stripe.event('customer.subscription.updated', subscription);

    const forged = await stripe.deliver(event, { secret: 'whsec_not_the_real_one' });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'Invalid webhook signature' });
    const replayed = await stripe.deliver(event, { timestampS: Math.floor(clock / 1000) - 600 });
    expect(replayed.status).toBe(400);
    const unsigned = await apiClient(server.url).post('/v1/billing/webhook', event);
    expect(unsigned.status).toBe(400);
    expect((await api.get('/v1/billing/subscription')).body.status).toBe('trialing');

    const first = await stripe.deliver(event);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect((await api.get('/v1/billing/subscription')).body.status).toBe('active');

    // Stripe changes the subscription meanwhile; the same event delivered again changes nothing.
    subscription.status = 'unpaid';
    const repeat = await stripe.deliver(event);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ received: true, duplicate: true });
    expect((await api.get('/v1/billing/subscription')).body.status).toBe('active');

    // An invoice event syncs the subscription's current state.
    const failed = await stripe.deliver(stripe.event('invoice.payment_failed', {
      id: 'in_1', object: 'invoice', parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
    }));
    expect(await failed.json()).toEqual({ received: true, duplicate: false });
    expect((await api.get('/v1/billing/subscription')).body.status).toBe('expired');
  });

  it('keeps another account out of a subscription', async () => {
    const owner = await subscribed();
    const { api: other } = await signUp(server.url);
    expect((await other.post('/v1/billing/free-subscription', { userId: owner.userId, billingCycle: 'monthly' })).status).toBe(403);
    expect((await other.post('/v1/billing/cancel', { reason: 'not mine' })).status).toBe(400);
    expect((await other.post('/v1/billing/reactivate')).status).toBe(400);
    expect((await other.post('/v1/billing/customer-portal')).body.error).toBe('Please contact support to manage your subscription');
    expect((await owner.api.get('/v1/billing/subscription')).body).toMatchObject({ plan: 'team', status: 'trialing', canceledAt: null });
    expect(stripe.subscriptions.get(owner.subscriptionId)!.cancel_at_period_end).toBe(false);
  });

  it('switches to the free plan, which stays usable after the trial', async () => {
    const start = clock;
    const { api, profile, email } = await signUp(server.url);
    const free = await api.post('/v1/billing/free-subscription', { userId: profile.id, billingCycle: 'monthly' });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ plan: 'free', status: 'active', trafficLimit: 100_000_000, isFreeUser: false });
    clock = start + 30 * DAY_MS;
    try {
      expect((await (await signIn(email)).get('/v1/devices')).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it('opens the customer portal, or says it is not configured yet', async () => {
    const { api } = await subscribed();
    const portal = await api.post('/v1/billing/customer-portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${stripe.url}/portal/cus_`));
    stripe.portalConfigured = false;
    try {
      const missing = await api.post('/v1/billing/customer-portal');
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('Customer portal is not configured yet');
    } finally {
      stripe.portalConfigured = true;
    }
  });

  describe('operator-made free users and demo accounts', () => {
    it('never locks a free user out', async () => {
      const start = clock;
      const { api: first, profile, email } = await signUp(server.url);
      let api = first;
      await server.app.ctx.db.updateTable('users').set({ is_free_user: 1 }).where('id', '=', profile.id).execute();
      expect((await api.get('/v1/user')).body.isFreeUser).toBe(true);
      clock = start + 60 * DAY_MS;
      try {
        api = await signIn(email);
        expect((await api.get('/v1/devices')).status).toBe(200);
        expect((await api.get('/v1/billing/subscription')).body).toMatchObject({ plan: 'free', isFreeUser: true });
      } finally {
        clock = start;
      }
    });
  });
});
