import { expect, it } from 'vitest';
import { RequestsPage } from '@spyglass/protocol';
import { describeApi, signUp, useTestServer } from './helpers';
import { connectViewer, items, signUpWithDevice } from './live-clients';

describeApi('requests API', () => {
  const server = useTestServer();

  it('lists a device’s items newest first, compact, page by page', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const sent = [items.network(), items.log('one'), items.screenshot(), items.log('two'), items.network({ status: 404 })];
    await device.sendItems(sent.slice(0, 3));
    await device.sendItems(sent.slice(3));

    const all = await api.get(`/v1/requests?deviceId=${device.deviceId}`);
    expect(all.status).toBe(200);
    const page = RequestsPage.parse(all.body);
    expect(page.items.map((i) => i.id)).toEqual(sent.map((i) => i.id).reverse());
    expect(page.items.map((i) => i.num)).toEqual([5, 4, 3, 2, 1]);
    expect(page.nextBefore).toBeNull();

    // Compact: no bodies and no image, flags say what the full item has.
    const network = all.body.items.find((i: { id: string }) => i.id === sent[0]!.id);
    expect(network).toMatchObject({ type: 'network', method: 'POST', url: 'https://api.example.com/users?page=1', status: 200, hasRequestBody: true, hasResponseBody: true });
    expect(network.details.request.body).toBeUndefined();
    expect(network.details.response.body).toBeUndefined();
    expect(all.body.items.find((i: { id: string }) => i.id === sent[2]!.id).details.image).toBeUndefined();

    const first = await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=2`);
    expect(first.body.items.map((i: { num: number }) => i.num)).toEqual([5, 4]);
    expect(first.body.nextBefore).toBe(4);
    const second = await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=2&before=${first.body.nextBefore}`);
    expect(second.body.items.map((i: { num: number }) => i.num)).toEqual([3, 2]);
    const last = await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=2&before=${second.body.nextBefore}`);
    expect(last.body).toMatchObject({ nextBefore: null });
    expect(last.body.items.map((i: { num: number }) => i.num)).toEqual([1]);
    await device.close();
  });

  it('filters by date range (ISO startDate, endDate)', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const old = items.log('old', '2026-01-01T10:00:00.000Z');
    const mid = items.log('mid', '2026-01-02T10:00:00.000Z');
    const recent = items.log('recent', '2026-01-03T10:00:00.000Z');
    await device.sendItems([old, mid, recent]);
    const res = await api.get(`/v1/requests?deviceId=${device.deviceId}&startDate=2026-01-02T00:00:00.000Z&endDate=2026-01-02T23:59:59.999Z`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([mid.id]);
    const since = await api.get(`/v1/requests?deviceId=${device.deviceId}&startDate=2026-01-02T00:00:00%2B01:00`);
    expect(since.body.items.map((i: { id: string }) => i.id)).toEqual([recent.id, mid.id]);
    await device.close();
  });

  it('refuses bad queries with 400 and other accounts’ devices with 404', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const stranger = await signUpWithDevice(server.url);
    await stranger.device.sendItems([items.log('private')]);
    for (const query of ['', `?deviceId=${device.deviceId}&limit=5001`, `?deviceId=${device.deviceId}&limit=0`, `?deviceId=${device.deviceId}&startDate=yesterday`, `?deviceId=${device.deviceId}&before=-3`]) {
      const res = await api.get(`/v1/requests${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=5000`)).status).toBe(200);
    const foreign = await api.get(`/v1/requests?deviceId=${stranger.device.deviceId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Device not found' });
    await device.close();
    await stranger.device.close();
  });

  it('answers one item in full, bodies and screenshot included, to its owner only', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const largeBody = JSON.stringify({ rows: 'y'.repeat(200 * 1024) });
    const network = items.network({ requestBody: '{"q":"small"}', responseBody: largeBody });
    const shot = items.screenshot('iVBORw0KGgo=');
    await device.sendItems([network, shot]);

    const full = await api.get(`/v1/requests/${network.id}`);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ id: network.id, deviceId: device.deviceId, type: 'network', details: { request: { body: '{"q":"small"}' } } });
    expect(full.body.details.response.body).toBe(largeBody);
    expect((await api.get(`/v1/requests/${shot.id}`)).body.details).toMatchObject({ name: 'Home screen', image: 'iVBORw0KGgo=' });

    const stranger = await signUp(server.url);
    const foreign = await stranger.api.get(`/v1/requests/${network.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Request not found' });
    expect((await api.get('/v1/requests/no-such-item')).status).toBe(404);
    await device.close();
  });

  it('answers a batch of one device’s items in full, in the order asked, to its owner only', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const largeBody = JSON.stringify({ rows: 'z'.repeat(200 * 1024) });
    const network = items.network({ requestBody: '{"q":"batch"}', responseBody: largeBody });
    const log = items.log('in the batch');
    const shot = items.screenshot('iVBORw0KGgo=');
    await device.sendItems([network, log, shot]);

    const lookup = (body: unknown, as = api) => as.post('/v1/requests/lookup', body);
    const found = await lookup({ deviceId: device.deviceId, ids: [shot.id, 'no-such-item', network.id, log.id, network.id] });
    expect(found.status).toBe(200);
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([shot.id, network.id, log.id]);
    expect(found.body.items[0].details).toMatchObject({ image: 'iVBORw0KGgo=' });
    expect(found.body.items[1].details.request.body).toBe('{"q":"batch"}');
    expect(found.body.items[1].details.response.body).toBe(largeBody);
    expect(found.body.items[1].deviceId).toBe(device.deviceId);

    // Bad input: 400 with a message, nothing looked up.
    const tooMany = Array.from({ length: 201 }, (_, i) => `id-${i}`);
    for (const body of [{}, { deviceId: device.deviceId }, { deviceId: device.deviceId, ids: [] }, { deviceId: device.deviceId, ids: tooMany },
      { deviceId: device.deviceId, ids: [''] }, { deviceId: '', ids: [log.id] }, { deviceId: device.deviceId, ids: 'x' }]) {
      const res = await lookup(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    // Another account: its own device is not this one, and this device is not its own.
    const stranger = await signUpWithDevice(server.url);
    await stranger.device.sendItems([items.log('private')]);
    const foreign = await lookup({ deviceId: device.deviceId, ids: [log.id] }, stranger.api);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Device not found' });
    const crossed = await lookup({ deviceId: stranger.device.deviceId, ids: [log.id, network.id] }, stranger.api);
    expect(crossed.status).toBe(200);
    expect(crossed.body.items).toEqual([]);
    await device.close();
    await stranger.device.close();
  });

  it('deletes one item or many, only the owner’s, and tells the viewers', async () => {
    const { api, token, device } = await signUpWithDevice(server.url);
    const stranger = await signUpWithDevice(server.url);
    const viewer = await connectViewer(server.url, token);
    await viewer.subscribe(device.deviceId);
    const mine = [items.log('a'), items.log('b'), items.log('c'), items.network()];
    const theirs = items.log('theirs');
    await device.sendItems(mine);
    await stranger.device.sendItems([theirs]);

    expect((await stranger.api.delete(`/v1/requests/${mine[0]!.id}`)).status).toBe(404);
    const one = await api.delete(`/v1/requests/${mine[0]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ success: true });
    expect(await viewer.next('requests_deleted')).toEqual({ type: 'requests_deleted', deviceId: device.deviceId, ids: [mine[0]!.id] });
    expect((await api.get(`/v1/requests/${mine[0]!.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/requests/${mine[0]!.id}`)).status).toBe(404);

    // A foreign id in the list is skipped, not deleted.
    const many = await api.delete('/v1/requests', { ids: [mine[1]!.id, mine[3]!.id, theirs.id, 'unknown'] });
    expect(many.status).toBe(200);
    expect(many.body).toEqual({ success: true, deleted: 2 });
    const announced = await viewer.next('requests_deleted');
    expect(announced.ids.sort()).toEqual([mine[1]!.id, mine[3]!.id].sort());
    expect((await stranger.api.get(`/v1/requests/${theirs.id}`)).status).toBe(200);
    const left = await api.get(`/v1/requests?deviceId=${device.deviceId}`);
    expect(left.body.items.map((i: { id: string }) => i.id)).toEqual([mine[2]!.id]);

    for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [''] }]) {
      expect((await api.delete('/v1/requests', body)).status, JSON.stringify(body)).toBe(400);
    }
    await viewer.close();
    await device.close();
    await stranger.device.close();
  });

  it('clears all items of a device and tells the viewers', async () => {
    const { api, token, device } = await signUpWithDevice(server.url);
    const stranger = await signUp(server.url);
    const viewer = await connectViewer(server.url, token);
    await viewer.subscribe(device.deviceId);
    await device.sendItems([items.log(), items.network({ responseBody: 'z'.repeat(80 * 1024) }), items.screenshot()]);

    expect((await stranger.api.delete(`/v1/devices/${device.deviceId}/requests`)).status).toBe(404);
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}`)).body.items).toHaveLength(3);

    const res = await api.delete(`/v1/devices/${device.deviceId}/requests`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, deleted: 3 });
    expect(await viewer.next('requests_cleared')).toEqual({ type: 'requests_cleared', deviceId: device.deviceId });
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}`)).body).toEqual({ items: [], nextBefore: null, total: 0 });

    // The device keeps its numbering after a clear, and new items show again.
    const next = items.log('after clear');
    await device.sendItems([next]);
    const after = await api.get(`/v1/requests?deviceId=${device.deviceId}`);
    expect(after.body.items.map((i: { id: string; num: number }) => [i.id, i.num])).toEqual([[next.id, 4]]);
    await viewer.close();
    await device.close();
  });
});
