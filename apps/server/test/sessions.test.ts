import { afterAll, beforeAll, expect, it } from 'vitest';
import { Session, SessionItemsPage, SESSION_NAME_MAX } from '@spyglass/protocol';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, items } from './live-clients';

describeApi('sessions API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { shareUrl: 'https://share.example.test' } });
  });
  afterAll(() => server?.close());

  async function accountWithDevice(device: Record<string, unknown> = {}) {
    const account = await signUp(server.url);
    const client = await connectDevice(server.url, account.profile.apiKey, { device: { name: 'Pixel 8', clientAppVersion: '4.2.0', ...device } });
    return { ...account, device: client };
  }

  it('saves a session that stays complete after the device’s items are cleared', async () => {
    const { api, device } = await accountWithDevice();
    const largeBody = JSON.stringify({ rows: 'x'.repeat(100 * 1024) });
    const network = items.network({ responseBody: largeBody, createdAt: '2026-03-01T10:00:01.000Z' });
    const log = items.log('first', '2026-03-01T10:00:03.000Z');
    const shot = items.screenshot('iVBORw0KGgoAAAANSUhEUg==');
    const other = items.log('not saved');
    await device.sendItems([network, log, shot, other]);

    // Ids in any order, one twice: numbered 1..N in the order the items arrived.
    const created = await api.post('/v1/sessions', { deviceId: device.deviceId, name: '  Checkout bug  ', requestIds: [log.id, shot.id, network.id, log.id] });
    expect(created.status).toBe(201);
    const session = Session.parse(created.body);
    expect(session).toMatchObject({
      name: 'Checkout bug', deviceId: device.deviceId, isShared: false, shareUrl: null,
      device: { name: 'Pixel 8', clientAppVersion: '4.2.0' }, metaData: { requests: 3, device: { name: 'Pixel 8', platform: 'ios' } },
    });
    expect(session.id).toMatch(/^[A-Za-z0-9]{22}$/);

    const cleared = await api.delete(`/v1/devices/${device.deviceId}/requests`);
    expect(cleared.body).toEqual({ success: true, deleted: 4 });

    const page = SessionItemsPage.parse((await api.get(`/v1/sessions/${session.id}/items`)).body);
    expect(page.nextAfter).toBeNull();
    expect(page.items.map((i) => [i.num, i.id])).toEqual([[1, network.id], [2, log.id], [3, shot.id]]);
    expect(page.items[0]).toMatchObject({ hasRequestBody: true, hasResponseBody: true });
    expect((page.items[0]!.details as { response: { body?: string } }).response.body).toBeUndefined();

    const full = await api.get(`/v1/sessions/${session.id}/items/${network.id}`);
    expect(full.status).toBe(200);
    expect(full.body.details.response.body).toBe(largeBody);
    expect(full.body.details.request.body).toBe('{"name":"Ada"}');
    expect((await api.get(`/v1/sessions/${session.id}/items/${shot.id}`)).body.details.image).toBe('iVBORw0KGgoAAAANSUhEUg==');
    expect((await api.get(`/v1/sessions/${session.id}/items/${other.id}`)).status).toBe(404);

    // A batch of full items for an export: in the order asked, an id the session does not hold left out.
    const lookup = (body: unknown, as = api, id = session.id) => as.post(`/v1/sessions/${id}/items/lookup`, body);
    const batch = await lookup({ ids: [shot.id, other.id, network.id, shot.id] });
    expect(batch.status).toBe(200);
    expect(batch.body.items.map((item: { id: string }) => item.id)).toEqual([shot.id, network.id]);
    expect(batch.body.items[0].details.image).toBe('iVBORw0KGgoAAAANSUhEUg==');
    expect(batch.body.items[1].details.response.body).toBe(largeBody);
    for (const body of [{}, { ids: [] }, { ids: [''] }, { ids: Array.from({ length: 201 }, (_, i) => `id-${i}`) }, { ids: 'x' }]) {
      const res = await lookup(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await lookup({ ids: [log.id] }, api, 'NoSuchSession0000000000')).status).toBe(404);
    const stranger = await signUp(server.url);
    const foreign = await lookup({ ids: [log.id] }, stranger.api);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Session not found' });

    // The device itself may go too: the session keeps its snapshot.
    expect((await api.delete(`/v1/devices/${device.deviceId}`)).status).toBe(200);
    const again = await api.get(`/v1/sessions/${session.id}`);
    expect(again.body).toMatchObject({ id: session.id, device: { name: 'Pixel 8' }, metaData: { requests: 3 } });
    expect((await api.get(`/v1/sessions/${session.id}/items/${network.id}`)).body.details.response.body).toBe(largeBody);
    await device.close();
  });

  it('lists the account’s sessions newest first and pages their items', async () => {
    const { api, device } = await accountWithDevice();
    const sent = Array.from({ length: 7 }, (_, i) => items.log(`line ${i}`, new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString()));
    await device.sendItems(sent);
    const ids = sent.map((i) => i.id);
    const a = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'A', requestIds: ids.slice(0, 2) })).body;
    const b = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'B', requestIds: ids })).body;
    const list = await api.get('/v1/sessions');
    expect(list.status).toBe(200);
    expect(list.body.map((s: Session) => s.id)).toEqual([b.id, a.id]);

    const first = await api.get(`/v1/sessions/${b.id}/items?limit=3`);
    expect(first.body.items.map((i: { num: number }) => i.num)).toEqual([1, 2, 3]);
    expect(first.body.nextAfter).toBe(3);
    const second = await api.get(`/v1/sessions/${b.id}/items?limit=3&after=3`);
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(3, 6));
    const last = await api.get(`/v1/sessions/${b.id}/items?limit=3&after=6`);
    expect(last.body).toMatchObject({ nextAfter: null });
    expect(last.body.items).toHaveLength(1);
    await device.close();
  });

  it('renames and shares for the owner; sharing answers the share URL, unsharing clears it', async () => {
    const { api, device } = await accountWithDevice();
    const item = items.log();
    await device.sendItems([item]);
    const { id } = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Before', requestIds: [item.id] })).body;

    const renamed = await api.put(`/v1/sessions/${id}`, { name: 'After' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'After', isShared: false, shareUrl: null });
    const shared = await api.put(`/v1/sessions/${id}`, { isShared: true });
    expect(shared.body).toMatchObject({ name: 'After', isShared: true, shareUrl: `https://share.example.test/shared-sessions/${id}` });
    expect((await api.get('/v1/sessions')).body[0]).toMatchObject({ id, isShared: true });
    const unshared = await api.put(`/v1/sessions/${id}`, { isShared: false, name: 'Final' });
    expect(unshared.body).toMatchObject({ name: 'Final', isShared: false, shareUrl: null });
    await device.close();
  });

  it('lets no other account read, rename, share or delete a session', async () => {
    const { api, device } = await accountWithDevice();
    const stranger = await accountWithDevice();
    const item = items.network();
    await device.sendItems([item]);
    const { id } = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Mine', requestIds: [item.id] })).body;

    const notFound = { error: 'Session not found' };
    expect(await stranger.api.get(`/v1/sessions/${id}`)).toMatchObject({ status: 404, body: notFound });
    expect(await stranger.api.put(`/v1/sessions/${id}`, { name: 'Theirs' })).toMatchObject({ status: 404, body: notFound });
    expect(await stranger.api.put(`/v1/sessions/${id}`, { isShared: true })).toMatchObject({ status: 404, body: notFound });
    expect(await stranger.api.delete(`/v1/sessions/${id}`)).toMatchObject({ status: 404, body: notFound });
    expect((await stranger.api.get(`/v1/sessions/${id}/items`)).status).toBe(404);
    expect((await stranger.api.get(`/v1/sessions/${id}/items/${item.id}`)).status).toBe(404);
    expect((await stranger.api.get('/v1/sessions')).body).toEqual([]);
    // Unchanged for the owner.
    expect((await api.get(`/v1/sessions/${id}`)).body).toMatchObject({ name: 'Mine', isShared: false });
    // Without a token: nothing.
    expect((await api.withToken('').get(`/v1/sessions/${id}`)).status).toBe(401);
    await device.close();
    await stranger.device.close();
  });

  it('refuses bad input with a clear 4xx and creates nothing', async () => {
    const { api, device } = await accountWithDevice();
    const stranger = await accountWithDevice();
    const mine = [items.log('a'), items.log('b')];
    const theirs = items.log('theirs');
    await device.sendItems(mine);
    await stranger.device.sendItems([theirs]);
    const deleted = items.log('deleted');
    await device.sendItems([deleted]);
    await api.delete(`/v1/requests/${deleted.id}`);
    const ids = mine.map((i) => i.id);

    const cases: Array<[string, unknown, number, string | RegExp]> = [
      ['no requests', { deviceId: device.deviceId, name: 'x', requestIds: [] }, 400, 'No requests to save'],
      ['no device', { name: 'x', requestIds: ids }, 400, /./],
      ['blank name', { deviceId: device.deviceId, name: '   ', requestIds: ids }, 400, 'Session name is required'],
      ['oversized name', { deviceId: device.deviceId, name: 'n'.repeat(SESSION_NAME_MAX + 1), requestIds: ids }, 400, `Session name must be at most ${SESSION_NAME_MAX} characters`],
      ['ids not strings', { deviceId: device.deviceId, name: 'x', requestIds: [1, 2] }, 400, /./],
      ['unknown device', { deviceId: 'no-such-device', name: 'x', requestIds: ids }, 404, 'Device not found'],
      ['foreign device', { deviceId: stranger.device.deviceId, name: 'x', requestIds: [theirs.id] }, 404, 'Device not found'],
      ['a foreign request id', { deviceId: device.deviceId, name: 'x', requestIds: [...ids, theirs.id] }, 404, '1 of 3 requests were not found on this device'],
      ['a deleted request id', { deviceId: device.deviceId, name: 'x', requestIds: [deleted.id] }, 404, 'Request not found'],
    ];
    for (const [what, body, status, error] of cases) {
      const res = await api.post('/v1/sessions', body);
      expect(res.status, what).toBe(status);
      if (typeof error === 'string') expect(res.body.error, what).toBe(error);
      else expect(res.body.error, what).toMatch(error);
    }
    expect((await api.post('/v1/sessions', 'not json', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await api.get('/v1/sessions')).body).toEqual([]);

    const { id } = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'ok', requestIds: ids })).body;
    for (const body of [{}, { name: '' }, { name: 'n'.repeat(SESSION_NAME_MAX + 1) }, { isShared: 'yes' }]) {
      expect((await api.put(`/v1/sessions/${id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get(`/v1/sessions/${id}`)).body).toMatchObject({ name: 'ok', isShared: false });
    expect((await api.put('/v1/sessions/unknown-session', { name: 'x' })).status).toBe(404);
    expect((await api.get(`/v1/sessions/${id}/items?limit=0`)).status).toBe(400);
    expect((await api.get(`/v1/sessions/${id}/items?after=-1`)).status).toBe(400);
    await device.close();
    await stranger.device.close();
  });

  it('deletes a session with its items', async () => {
    const { api, device } = await accountWithDevice();
    const shot = items.screenshot();
    await device.sendItems([shot]);
    const { id } = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Gone soon', requestIds: [shot.id] })).body;
    expect(await api.delete(`/v1/sessions/${id}`)).toMatchObject({ status: 200, body: { success: true } });
    expect((await api.get(`/v1/sessions/${id}`)).status).toBe(404);
    expect((await api.get(`/v1/sessions/${id}/items/${shot.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(404);
    // The live item is untouched.
    expect((await api.get(`/v1/requests/${shot.id}`)).status).toBe(200);
    await device.close();
  });
});
