import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';

const ITEMS = 50_000;
const BURST = 1_000;

/**
 * Issue 14, acceptance 2: an app logging 50,000 items in bursts (yielding to the event loop every
 * 1,000, as apps do between tasks) against a healthy server loses none: the SDK's outbox is bounded
 * by bytes, not by a count a burst overflows, and every item is stored exactly once.
 */
describeApi('SDK bursts', () => {
  let server: TestServer;
  let client: SpyglassClient;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await client?.stop();
    await server?.close();
  });

  it('stores every one of 50,000 items logged in bursts, exactly once', async () => {
    const account = await signUp(server.url);
    client = createSpyglass({
      serverUrl: server.url, apiKey: account.profile.apiKey, installId: `burst-${process.pid}-${Date.now()}`,
      capture: { fetch: false, xhr: false, http: false },
    });
    await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
    const deviceId = client.deviceId!;
    let pressure = 0;
    client.on('backpressure', (state) => {
      if (state.active) pressure++;
    });

    for (let i = 0; i < ITEMS; i++) {
      client.log(`burst item ${i}`, { level: 'info', category: 'burst' });
      if ((i + 1) % BURST === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await client.flush();

    const stats = client.stats();
    expect(stats).toMatchObject({ dropped: 0, rejected: 0, queued: 0, unacknowledged: 0, acknowledged: ITEMS });
    // 50,000 short logs are a few MB: far below the outbox's 32 MB, so the app never had to slow down.
    expect(pressure).toBe(0);

    const rows = await server.app.ctx.db.selectFrom('items').select(['id', 'num']).where('device_id', '=', deviceId).execute();
    expect(rows).toHaveLength(ITEMS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(ITEMS);
    expect(new Set(rows.map((r) => Number(r.num))).size).toBe(ITEMS);
  }, 120_000);
});
