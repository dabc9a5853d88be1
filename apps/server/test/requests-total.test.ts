import { afterAll, beforeAll, expect, it } from 'vitest';
import { RequestsPage } from '@spyglass/protocol';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, items } from './live-clients';

/** 'Total: M' of the request list's stats bar: the first page of GET /v1/requests counts the device's stored items. */
describeApi('requests API: the device’s total', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  async function accountWithDevice() {
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey);
    return { ...account, device };
  }

  it('counts every stored item on the first page only, and follows deletes and clears', async () => {
    const { api, device } = await accountWithDevice();
    const sent = Array.from({ length: 7 }, (_, i) => items.log(`line ${i}`));
    await device.sendItems(sent);

    const first = RequestsPage.parse((await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=3`)).body);
    expect(first.items.map((i) => i.num)).toEqual([7, 6, 5]);
    expect(first.total).toBe(7);
    const older = await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=3&before=${first.nextBefore}`);
    expect(older.status).toBe(200);
    expect(older.body.items.map((i: { num: number }) => i.num)).toEqual([4, 3, 2]);
    expect(older.body).not.toHaveProperty('total');

    expect((await api.delete('/v1/requests', { ids: [sent[0]!.id, sent[6]!.id] })).body).toEqual({ success: true, deleted: 2 });
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=1`)).body).toMatchObject({ total: 5 });
    await device.sendItems([items.log('after the deletes')]);
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=1`)).body).toMatchObject({ total: 6 });

    expect((await api.delete(`/v1/devices/${device.deviceId}/requests`)).body).toEqual({ success: true, deleted: 6 });
    expect((await api.get(`/v1/requests?deviceId=${device.deviceId}`)).body).toEqual({ items: [], nextBefore: null, total: 0 });
    await device.close();
  });

  it('counts within the query’s dates', async () => {
    const { api, device } = await accountWithDevice();
    await device.sendItems([
      items.log('old', '2026-01-01T10:00:00.000Z'),
      items.log('mid', '2026-01-02T10:00:00.000Z'),
      items.log('mid 2', '2026-01-02T11:00:00.000Z'),
      items.log('recent', '2026-01-03T10:00:00.000Z'),
    ]);
    const res = await api.get(`/v1/requests?deviceId=${device.deviceId}&limit=1&startDate=2026-01-02T00:00:00.000Z&endDate=2026-01-02T23:59:59.999Z`);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.total).toBe(2);
    await device.close();
  });

  it('tells nothing of another account’s device: 404, no count', async () => {
    const { api } = await accountWithDevice();
    const stranger = await accountWithDevice();
    await stranger.device.sendItems([items.log('private'), items.log('private 2')]);
    const foreign = await api.get(`/v1/requests?deviceId=${stranger.device.deviceId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Device not found' });
    expect((await stranger.api.get(`/v1/requests?deviceId=${stranger.device.deviceId}`)).body.total).toBe(2);
    await stranger.device.close();
  });
});
