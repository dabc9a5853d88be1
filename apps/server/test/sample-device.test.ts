import { expect, it } from 'vitest';
import { CapturedItem, RequestsPage, SAMPLE_DEVICE_ID, SAMPLE_ITEM_COUNT, type Device } from '@spyglass/protocol';
import { removeExpiredDemoUsers } from '../src/jobs/demo-cleanup';
import { apiClient, describeApi, signUp, useTestServer } from './helpers';
import { connectDevice, connectViewer } from './live-clients';

const HOUR_MS = 60 * 60 * 1000;

describeApi('the sample device 1-demo (spec 002 Sample data)', () => {
  const server = useTestServer({ config: { sampleDevice: true } });

  it('gives a new account 1-demo with its 32 items, each of which opens whole', async () => {
    const { api } = await signUp(server.url);
    const devices = (await api.get('/v1/devices')).body as Device[];
    expect(devices.map((d) => [d.id, d.name, d.online])).toEqual([[SAMPLE_DEVICE_ID, 'Sample iPhone', false]]);
    const page = RequestsPage.parse((await api.get(`/v1/requests?deviceId=${SAMPLE_DEVICE_ID}&limit=100`)).body);
    expect(page.items).toHaveLength(SAMPLE_ITEM_COUNT);
    expect(new Set(page.items.map((i) => i.type))).toEqual(new Set(['network', 'log', 'event', 'screenshot', 'firebaseAnalytics']));
    const screenshot = CapturedItem.parse((await api.get(`/v1/requests/${page.items.find((i) => i.type === 'screenshot')!.id}`)).body);
    expect(screenshot.type === 'screenshot' && screenshot.details.image?.startsWith('iVBORw0KGgo')).toBe(true);
    const todos = CapturedItem.parse((await api.get(`/v1/requests/${page.items.find((i) => i.url?.endsWith('/v1/todos?status=all'))!.id}`)).body);
    expect(todos.type === 'network' && JSON.parse(todos.details.response?.body ?? '[]')).toHaveLength(3);
  });

  it('takes the sample away when the first real device connects, and tells the dashboards', async () => {
    const { api, token, profile } = await signUp(server.url);
    const viewer = await connectViewer(server.url, token);
    const device = await connectDevice(server.url, profile.apiKey);
    await viewer.next('device_deleted', (m) => m.deviceId === SAMPLE_DEVICE_ID);
    expect(((await api.get('/v1/devices')).body as Device[]).map((d) => d.id)).toEqual([device.deviceId]);
    expect((await api.get(`/v1/requests?deviceId=${SAMPLE_DEVICE_ID}`)).status).toBe(404);
    await device.close();
    await viewer.close();
  });

  it('can be removed by hand like any device', async () => {
    const { api } = await signUp(server.url);
    expect((await api.delete(`/v1/devices/${SAMPLE_DEVICE_ID}`)).status).toBe(200);
    expect((await api.get('/v1/devices')).body).toEqual([]);
  });
});

describeApi('demo mode (DEMO_MODE=1)', () => {
  const server = useTestServer({ config: { demoMode: true } });

  it('creates a demo user with the sample device and a usable subscription, removed after its time', async () => {
    const created = await apiClient(server.url).post('/v1/user/demo', { timezone: 'Europe/Berlin' });
    expect(created.status).toBe(200);
    const signedIn = await apiClient(server.url).post('/v1/auth/signin', { ...created.body, timezone: 'Europe/Berlin' });
    const api = apiClient(server.url, signedIn.body.token);
    expect((await api.get('/v1/user')).body).toMatchObject({ isDemoUser: true });
    expect(((await api.get('/v1/devices')).body as Device[]).map((d) => d.id)).toEqual([SAMPLE_DEVICE_ID]);
    expect(RequestsPage.parse((await api.get(`/v1/requests?deviceId=${SAMPLE_DEVICE_ID}&limit=100`)).body).items).toHaveLength(32);
    // A usable subscription: the 402 gate lets the account through.
    expect((await api.get(`/v1/requests?deviceId=${SAMPLE_DEVICE_ID}`)).status).toBe(200);

    const { db, blobs, now } = server.app.ctx;
    expect(await removeExpiredDemoUsers(db, blobs, 24, now())).toBe(0);
    expect((await api.get('/v1/user')).status).toBe(200);
    expect(await removeExpiredDemoUsers(db, blobs, 24, now() + 25 * HOUR_MS)).toBe(1);
    expect((await api.get('/v1/user')).status).toBe(401);
  });
});
