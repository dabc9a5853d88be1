import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeviceItem, UsageResponse } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import { DEFAULT_PLANS_CONFIG } from '../src/services/billing-plans';
import { describeApi, signUp, startTestServer, type ApiClient, type TestServer, useTestServer } from './helpers';
import { TestDevice, itemId, logItem } from './device-protocol-client';
import { connectViewer } from './live-clients';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';

const request = (id: string): DeviceItem => ({
  id, type: 'network', createdAt: new Date().toISOString(),
  details: { request: { method: 'POST', url: 'https://api.example.com/cart', headers: {}, body: 'r'.repeat(300), startedAt: new Date().toISOString() } },
});
const completion = (id: string): DeviceItem => ({
  id, type: 'network', createdAt: new Date().toISOString(),
  details: {
    request: { method: 'POST', url: 'https://api.example.com/cart', headers: {}, startedAt: new Date().toISOString() },
    response: { statusCode: 200, headers: {}, body: 'a'.repeat(700), receivedAt: new Date().toISOString() },
  },
});

async function storedItems(api: ApiClient, deviceId: string): Promise<Array<{ id: string; size: number }>> {
  const page = await api.get(`/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=1000`);
  expect(page.status).toBe(200);
  return page.body.items;
}

async function usage(api: ApiClient, days = 7): Promise<UsageResponse['requestsGroupedByHour']> {
  const res = await api.get(`/v1/billing/usage?days=${days}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.requestsGroupedByHour;
}

const totals = (hours: UsageResponse['requestsGroupedByHour']) =>
  hours.reduce((sum, h) => ({ count: sum.count + h.count, size: sum.size + h.size }), { count: 0, size: 0 });

describeApi('traffic metering', () => {
  const server = useTestServer();

  it('counts each item once with its size, a resend never, a completion by what it added', async () => {
    const { api, profile } = await signUp(server.url);
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, profile.apiKey, deviceId);
    const a = itemId('net');
    const items = [request(a), logItem('counted once')];
    client.sendItems(1, items);
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    const first = await storedItems(api, deviceId);
    const firstSize = first.reduce((sum, i) => sum + i.size, 0);
    const hours = await usage(api);
    expect(hours).toHaveLength(1);
    expect(hours[0]).toMatchObject({ count: 2, size: firstSize });
    expect(Date.parse(hours[0]!.hour) % 3_600_000).toBe(0);

    // The SDK resends a batch whose ack it missed: stored once, counted once.
    client.sendItems(2, items);
    expect(await client.ack(2)).toEqual({ type: 'ack', seq: 2 });
    expect(totals(await usage(api))).toEqual({ count: 2, size: firstSize });

    // The response completes the request: no new request, only the bytes it added.
    client.sendItems(3, [completion(a)]);
    expect(await client.ack(3)).toEqual({ type: 'ack', seq: 3 });
    const after = await storedItems(api, deviceId);
    const afterSize = after.reduce((sum, i) => sum + i.size, 0);
    expect(afterSize).toBeGreaterThan(firstSize);
    expect(totals(await usage(api))).toEqual({ count: 2, size: afterSize });
    // The same completion again adds nothing.
    client.sendItems(4, [completion(a)]);
    expect(await client.ack(4)).toEqual({ type: 'ack', seq: 4 });
    expect(totals(await usage(api))).toEqual({ count: 2, size: afterSize });
    await client.close();

    // Counted in the database with the items: another account sees none of it.
    const other = await signUp(server.url);
    expect(await usage(other.api, 30)).toEqual([]);
  });

  it('answers no invoices when self-hosted', async () => {
    const { api } = await signUp(server.url);
    expect((await api.get('/v1/billing/invoices')).body).toEqual({ invoices: [] });
  });

  it('answers the ranges of the spec and refuses others', async () => {
    const { api } = await signUp(server.url);
    for (const days of [7, 30, 90, 365]) expect((await api.get(`/v1/billing/usage?days=${days}`)).status).toBe(200);
    expect((await api.get('/v1/billing/usage')).status).toBe(200);
    const bad = await api.get('/v1/billing/usage?days=5');
    expect(bad.status).toBe(400);
  });
});

describeApi('traffic quota, hosted', () => {
  let server: TestServer;
  let stripe: StripeStandIn;
  let smtp: SmtpReceiver;
  let plansDir: string;
  /** Small enough to cross with a few items. */
  const TEAM_LIMIT = 10_000;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    smtp = await startSmtpReceiver();
    plansDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-'));
    const plansFile = path.join(plansDir, 'plans.json');
    fs.writeFileSync(plansFile, JSON.stringify({
      ...DEFAULT_PLANS_CONFIG,
      plans: DEFAULT_PLANS_CONFIG.plans.map((p) => (p.id === 'team' ? { ...p, trafficLimit: TEAM_LIMIT } : p)),
    }));
    server = await startTestServer({
      config: {
        stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url }, publicUrl: 'http://127.0.0.1', plansFile,
        smtpUrl: smtp.url,
      },
    });
    stripe.webhookUrl = `${server.url}/v1/billing/webhook`;
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    await smtp?.close();
    fs.rmSync(plansDir, { recursive: true, force: true });
  });

  it('alerts once at 80 %, refuses items at 100 % with quota_exceeded while stored ones stay readable, and an upgrade unblocks', async () => {
    const { api, email, token } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', {
      tier: 'team', billingCycle: 'monthly', successUrl: 'http://127.0.0.1/onboarding', cancelUrl: 'http://127.0.0.1/onboarding',
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    const subscription = await stripe.completeCheckout(checkout.body.sessionId);
    expect((await api.get('/v1/billing/subscription')).body).toMatchObject({ plan: 'team', trafficLimit: TEAM_LIMIT });
    const profile = (await api.get('/v1/user')).body;

    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, profile.apiKey, deviceId);
    // A dashboard open on another screen: the quota banner comes and goes without a reload.
    const viewer = await connectViewer(server.url, token);
    const alertSubject = /You have used \d+% of your Spyglass traffic/;
    let seq = 0;
    let refused: { code?: string; seq?: number; retryAfterMs?: number } | null = null;
    let refusedItem: DeviceItem | null = null;
    // About 1,100 bytes per item: the alert after 8, the block after 10.
    for (let i = 0; i < 20 && !refused; i++) {
      const item = logItem('x'.repeat(1_000));
      const answer = await (client.sendItems(++seq, [item]), client.ack(seq));
      if (answer.type === 'error') {
        refused = answer;
        refusedItem = item;
      }
    }
    expect(refused).toMatchObject({ code: 'quota_exceeded', seq, message: 'You have exceeded your quota. Please upgrade your plan' });
    expect(refused!.retryAfterMs).toBeGreaterThan(0);
    const used = (await api.get('/v1/billing/subscription')).body.trafficUsed;
    expect(used).toBeGreaterThanOrEqual(TEAM_LIMIT);
    expect(await viewer.next('quota_changed')).toEqual({ type: 'quota_changed', exceeded: true });

    const alert = await smtp.waitForMail(email, { subject: alertSubject });
    expect(alert.text).toContain('of the 0.01 MB its plan includes');
    // Nothing of the refused frame was stored; what came before stays readable.
    const stored = await storedItems(api, deviceId);
    expect(stored.map((i) => i.id)).not.toContain(refusedItem!.id);
    expect(stored).toHaveLength(seq - 1);
    expect((await api.get(`/v1/requests/${encodeURIComponent(stored[0]!.id)}`)).status).toBe(200);
    // Still refused, and still only one alert in this period.
    client.sendItems(++seq, [logItem('still over')]);
    expect(await client.ack(seq)).toMatchObject({ code: 'quota_exceeded' });
    expect(smtp.mails.filter((m) => m.to.includes(email) && alertSubject.test(m.subject))).toHaveLength(1);

    // An upgrade to Pro (Stripe's webhook) lifts the block at once.
    subscription.metadata.plan = 'pro';
    const delivered = await stripe.deliver(stripe.event('customer.subscription.updated', subscription));
    expect(delivered.status).toBe(200);
    expect(await viewer.next('quota_changed', (m) => !m.exceeded)).toEqual({ type: 'quota_changed', exceeded: false });
    client.sendItems(++seq, [refusedItem!]);
    expect(await client.ack(seq)).toEqual({ type: 'ack', seq });
    expect((await storedItems(api, deviceId)).map((i) => i.id)).toContain(refusedItem!.id);
    expect(viewer.inbox.all.filter((m) => m.type === 'quota_changed')).toHaveLength(2);
    await Promise.all([client.close(), viewer.close()]);
  });

  /** Waits (bounded by the test's timeout) until the client's counters say what `done` looks for. */
  async function untilStats(client: SpyglassClient, done: (stats: ReturnType<SpyglassClient['stats']>) => boolean): Promise<void> {
    while (!done(client.stats())) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('the SDK stops sending over quota, keeps its items and says so in stats(), then delivers them after an upgrade', async () => {
    const { api } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', {
      tier: 'team', billingCycle: 'monthly', successUrl: 'http://127.0.0.1/onboarding', cancelUrl: 'http://127.0.0.1/onboarding',
    });
    const subscription = await stripe.completeCheckout(checkout.body.sessionId);
    const profile = (await api.get('/v1/user')).body;
    const client = createSpyglass({
      serverUrl: server.url, apiKey: profile.apiKey, installId: itemId('quota-sdk'),
      capture: { fetch: false, xhr: false, http: false }, reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
    });
    try {
      for (let i = 0; i < 12; i++) {
        client.log('z'.repeat(1_000));
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      await untilStats(client, (stats) => stats.quotaExceeded);
      const blocked = client.stats();
      expect(blocked.dropped).toBe(0);
      expect(blocked.queued + blocked.unacknowledged).toBeGreaterThan(0);
      expect(blocked.status).toBe('connected');

      subscription.metadata.plan = 'pro';
      expect((await stripe.deliver(stripe.event('customer.subscription.updated', subscription))).status).toBe(200);
      await client.flush();
      expect(client.stats()).toMatchObject({ quotaExceeded: false, acknowledged: 12, dropped: 0, rejected: 0 });
    } finally {
      await client.stop();
    }
  // 6.5 s on a quiet machine; the SDK waits out each retryAfterMs (5 s), which a loaded one stretches.
  }, 90_000);

  it('lists the customer\'s invoices from Stripe, newest first, and none of another customer', async () => {
    const { api } = await signUp(server.url);
    expect((await api.get('/v1/billing/invoices')).body).toEqual({ invoices: [] });
    const checkout = await api.post('/v1/billing/create-checkout-session', {
      tier: 'team', billingCycle: 'monthly', successUrl: 'http://127.0.0.1/settings', cancelUrl: 'http://127.0.0.1/settings',
    });
    const subscription = await stripe.completeCheckout(checkout.body.sessionId);
    const invoice = (id: string, created: number, customer = subscription.customer) => ({
      id, object: 'invoice' as const, customer, created, period_start: created, period_end: created + 30 * 86_400, amount_due: 1900, currency: 'usd',
      status: 'paid', invoice_pdf: `https://pay.example.com/${id}.pdf`,
    });
    stripe.invoices.push(invoice('in_old', 1_780_000_000), invoice('in_new', 1_782_600_000), invoice('in_other', 1_782_600_001, 'cus_someone_else'));
    const { invoices } = (await api.get('/v1/billing/invoices')).body;
    expect(invoices.map((i: { id: string }) => i.id)).toEqual(['in_new', 'in_old']);
    expect(invoices[0]).toEqual({
      id: 'in_new', created: 1_782_600_000, period_start: 1_782_600_000, period_end: 1_782_600_000 + 30 * 86_400, amount_due: 1900, currency: 'usd',
      status: 'paid', invoice_pdf: 'https://pay.example.com/in_new.pdf',
    });
  });

  it('meters nothing against accounts without a limit (the trial)', async () => {
    const { api, profile } = await signUp(server.url);
    expect((await api.get('/v1/billing/subscription')).body.trafficLimit).toBeNull();
    const { client } = await TestDevice.online(server.url, profile.apiKey, itemId('dev'));
    const items = Array.from({ length: 12 }, () => logItem('y'.repeat(1_000)));
    client.sendItems(1, items);
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    expect(totals(await usage(api)).count).toBe(12);
    await client.close();
  });
});
