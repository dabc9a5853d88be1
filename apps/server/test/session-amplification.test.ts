import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SESSION_MAX_ITEMS, SessionItemsPage } from '@spyglass/protocol';
import { SAVE_IN_PROGRESS, SAVES_BUSY } from '../src/services/session-saves.service';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, items, type DeviceClient } from './live-clients';

/**
 * Issue 12, defect 7: four concurrent 24.6 MB POST /v1/sessions bodies took the server from 156
 * to 704 MB; a 100,000-item session blocked the event loop for 1.4 s and grew the database by
 * 269 MB from a 1 MB request; sessions were unbounded in number.
 */
describeApi('session amplification', () => {
  let server: TestServer;
  const devices: DeviceClient[] = [];
  beforeAll(async () => {
    server = await startTestServer({ config: { sessionLimits: { maxPerAccount: 3, maxItemsPerAccount: 40_000, maxConcurrentSaves: 2 } } });
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close()));
    await server?.close();
  });

  async function accountWithItems(count: number) {
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey);
    devices.push(device);
    const ids: string[] = [];
    for (let sent = 0; sent < count; sent += 500) {
      const batch = Array.from({ length: Math.min(500, count - sent) }, (_, i) => items.log(`line ${sent + i}`));
      await device.sendItems(batch);
      ids.push(...batch.map((item) => item.id));
    }
    return { ...account, deviceId: device.deviceId, ids };
  }

  const sessionCount = async (api: Awaited<ReturnType<typeof signUp>>['api']) => ((await api.get('/v1/sessions')).body as unknown[]).length;

  /**
   * A save whose body is still arriving: the gate admits it when its headers arrive, and it holds
   * its place until the body is complete or the client goes away.
   */
  function trickledSave(token: string, deviceId: string) {
    const body = JSON.stringify({ deviceId, name: 'Slow', requestIds: ['a'] });
    const request = http.request(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('error', () => {});
    request.write(body.slice(0, 10));
    return { abort: () => request.destroy() };
  }

  it('refuses a session of more items than a session holds, and a body over its limit, storing nothing', async () => {
    const { api, deviceId } = await accountWithItems(1);
    const tooMany = await api.post('/v1/sessions', { deviceId, name: 'Too many', requestIds: Array.from({ length: SESSION_MAX_ITEMS + 1 }, (_, i) => String(i)) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toContain(`A session holds at most ${SESSION_MAX_ITEMS} requests`);
    // Ids of the longest kind, more of them than fit: 413 before anything is parsed.
    const long = 'x'.repeat(100);
    const oversized = await api.post('/v1/sessions', { deviceId, name: 'Huge', requestIds: Array.from({ length: SESSION_MAX_ITEMS * 1.1 }, () => long) });
    expect(oversized.status).toBe(413);
    expect(await sessionCount(api)).toBe(0);
  });

  it('admits one save per account and a few per server at a time, before reading their bodies', async () => {
    const first = await accountWithItems(1);
    const second = await accountWithItems(1);
    const third = await accountWithItems(1);
    const save = (account: typeof first) => account.api.post('/v1/sessions', { deviceId: account.deviceId, name: 'Now', requestIds: account.ids });
    // Empty saves answer 400 'No requests to save' once admitted and store nothing: used to wait
    // until the trickled save holds its place.
    const probe = (account: typeof first) => account.api.post('/v1/sessions', { deviceId: account.deviceId, name: 'Probe', requestIds: [] });

    const slow = trickledSave(first.token, first.deviceId);
    await expect.poll(async () => (await probe(first)).body.error).toBe(SAVE_IN_PROGRESS);
    // Another account still saves...
    const slowToo = trickledSave(second.token, second.deviceId);
    await expect.poll(async () => (await probe(second)).body.error).toBe(SAVE_IN_PROGRESS);
    // ...until the server's saves in progress (2 here) are taken.
    const busy = await save(third);
    expect(busy.status).toBe(429);
    expect(busy.body).toEqual({ error: SAVES_BUSY });

    // A client that goes away gives its place back.
    slow.abort();
    slowToo.abort();
    await expect.poll(async () => (await save(third)).status).toBe(201);
    expect((await save(first)).status).toBe(201);
  });

  it('caps the sessions and the session items an account keeps, with a clear error', async () => {
    const { api, deviceId, ids } = await accountWithItems(10);
    for (let i = 0; i < 3; i++) expect((await api.post('/v1/sessions', { deviceId, name: `S${i}`, requestIds: ids.slice(0, 2) })).status).toBe(201);
    const fourth = await api.post('/v1/sessions', { deviceId, name: 'S3', requestIds: ids.slice(0, 2) });
    expect(fourth.status).toBe(400);
    expect(fourth.body).toEqual({ error: 'An account may keep at most 3 sessions: delete some to save new ones' });
    expect(await sessionCount(api)).toBe(3);
  });

  it('copies a large session in batches that keep the event loop turning, numbered in arrival order', async () => {
    const count = 30_000;
    const { api, deviceId, ids } = await accountWithItems(count);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // Turns of the event loop while the save runs (the server runs in this process): SQLite runs
    // each statement on this thread, so one INSERT ... SELECT of every row allowed none during the
    // copy (100,000 rows held the loop 1.4 s); batches let it turn between them. Counted rather
    // than timed, so that a loaded machine does not decide the outcome.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    // Ids in reverse: the session still numbers them in the order they arrived.
    const created = await api.post('/v1/sessions', { deviceId, name: 'Large', requestIds: [...ids].reverse() });
    counting = false;
    delay.disable();
    expect(created.status).toBe(201);
    console.info(`saving a ${count}-item session: ${turns} turns of the event loop, longest stall ${(delay.max / 1e6).toFixed(0)} ms`);
    expect(turns).toBeGreaterThanOrEqual(count / 1000);
    const page = SessionItemsPage.parse((await api.get(`/v1/sessions/${created.body.id}/items?limit=5000`)).body);
    expect(page.items.slice(0, 3).map((i) => [i.num, i.id])).toEqual([[1, ids[0]], [2, ids[1]], [3, ids[2]]]);
    const last = SessionItemsPage.parse((await api.get(`/v1/sessions/${created.body.id}/items?after=${count - 2}`)).body);
    expect(last.items.map((i) => [i.num, i.id])).toEqual([[count - 1, ids[count - 2]], [count, ids[count - 1]]]);

    // The account's item cap (40,000 here) refuses the next large save.
    const over = await api.post('/v1/sessions', { deviceId, name: 'Again', requestIds: ids.slice(0, 20_000) });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('An account may keep at most 40000 requests in its sessions (30000 now): delete some sessions to save this one');
  });
});
