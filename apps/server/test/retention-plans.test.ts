import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS, planCutoffs, runRetention } from '../src/jobs/retention';
import { describeApi, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';
import { connectDevice, items } from './live-clients';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describeApi('retention by plan', () => {
  let server: TestServer;
  let stripe: StripeStandIn;
  let clock = START;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    stripe.now = () => clock;
    server = await startTestServer({
      now: () => clock,
      config: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url }, publicUrl: 'http://127.0.0.1', retentionDays: 0 },
    });
    stripe.webhookUrl = `${server.url}/v1/billing/webhook`;
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  /** An account on `tier` with a device holding one item 8 days old and one an hour old, and a session of each age. */
  async function accountOn(tier: 'team' | 'pro') {
    const { api, profile } = await signUp(server.url);
    const checkout = await api.post('/v1/billing/create-checkout-session', {
      tier, billingCycle: 'monthly', successUrl: 'http://127.0.0.1/settings', cancelUrl: 'http://127.0.0.1/settings',
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    await stripe.completeCheckout(checkout.body.sessionId);
    const device = await connectDevice(server.url, profile.apiKey);
    const old = items.log('8 days old', iso(START - 8 * DAY_MS));
    const fresh = items.log('an hour old', iso(START - 3_600_000));
    await device.sendItems([old, fresh]);
    clock = START - 8 * DAY_MS;
    const oldSession = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Old', requestIds: [old.id] })).body;
    clock = START;
    const freshSession = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'New', requestIds: [old.id, fresh.id] })).body;
    expect(oldSession.id && freshSession.id).toBeTruthy();
    return { api, deviceId: device.deviceId, old, fresh, oldSession, freshSession, close: () => device.close() };
  }

  const itemIds = async (api: ApiClient, deviceId: string) =>
    ((await api.get(`/v1/requests?deviceId=${deviceId}`)).body.items as Array<{ id: string }>).map((i) => i.id).sort();
  const sessionIds = async (api: ApiClient) => ((await api.get('/v1/sessions')).body as Array<{ id: string }>).map((s) => s.id).sort();

  it('removes a Team account\'s items and sessions older than 7 days and keeps a Pro account\'s 8-day-old ones', async () => {
    const team = await accountOn('team');
    const pro = await accountOn('pro');
    const { ctx } = server.app;
    const removed = await runRetention(ctx.db, ctx.blobs, planCutoffs(ctx.db, ctx.billing, 0, clock), { batch: 1 });
    expect(removed.items).toBeGreaterThanOrEqual(1);

    expect(await itemIds(team.api, team.deviceId)).toEqual([team.fresh.id]);
    expect(await sessionIds(team.api)).toEqual([team.freshSession.id]);
    expect(await itemIds(pro.api, pro.deviceId)).toEqual([pro.old.id, pro.fresh.id].sort());
    expect(await sessionIds(pro.api)).toEqual([pro.freshSession.id, pro.oldSession.id].sort());
    // A session keeps its own copies: the Team session saved now still holds the 8-day-old item.
    const kept = await team.api.get(`/v1/sessions/${team.freshSession.id}/items`);
    expect(kept.status).toBe(200);
    expect((kept.body.items as Array<{ id: string }>).map((i) => i.id)).toContain(team.old.id);
    await team.close();
    await pro.close();
  });
});
