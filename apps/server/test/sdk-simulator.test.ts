import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CapturedItem, Device } from '@spyglass/protocol';
import { ACTION_KINDS, startSimulator, type Simulator } from '@spyglass/simulator';
import { describeApi, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';

describeApi('simulator on the real server', () => {
  let server: TestServer;
  let api: ApiClient;
  let apiKey: string;
  let simulator: Simulator | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    const account = await signUp(server.url);
    api = account.api;
    apiKey = account.profile.apiKey as string;
  });
  afterAll(async () => {
    await simulator?.stop();
    await server?.close();
  });

  const itemsOf = async (deviceId: string): Promise<CapturedItem[]> => {
    const res = await api.get(`/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=5000`);
    expect(res.status).toBe(200);
    return res.body.items as CapturedItem[];
  };

  it('runs iOS and Android devices whose traffic is stored with every item type and body kind', async () => {
    simulator = await startSimulator({ serverUrl: server.url, apiKey, devices: 2, rate: 0, seed: 11 });
    await simulator.connected();
    const devices = (await api.get('/v1/devices')).body as Device[];
    expect(devices.map((d) => d.platform).sort()).toEqual(['android', 'ios']);
    for (const d of simulator.devices) {
      expect(devices.find((x) => x.id === d.installId)).toMatchObject({ online: true, name: d.info.name, model: d.info.model, bundleId: d.info.bundleId });
    }

    const [device] = simulator.devices;
    for (const kind of ACTION_KINDS) await device!.act(kind);
    await Promise.all(Array.from({ length: 60 }, () => device!.act('network')));
    await simulator.flush();

    const stored = await itemsOf(device!.installId);
    expect(new Set(stored.map((i) => i.type))).toEqual(new Set(['network', 'log', 'event', 'firebaseAnalytics', 'screenshot']));
    const network = stored.filter((i) => i.type === 'network');
    expect(network).toHaveLength(61);
    const full = await Promise.all(network.map(async (i) => (await api.get(`/v1/requests/${i.id}`)).body as CapturedItem));
    const responses = full.flatMap((i) => (i.type === 'network' && i.details.response ? [i.details.response] : []));
    const contentTypes = new Set(responses.map((r) => r.headers['content-type']?.split(';')[0]));
    expect(contentTypes.has('application/json')).toBe(true);
    expect([...contentTypes].filter((t) => t !== 'application/json').length).toBeGreaterThan(1);
    expect(responses.some((r) => r.bodyEncoding === 'base64')).toBe(true);
    expect(responses.some((r) => r.statusCode >= 400)).toBe(true);
  });

  it('streams at a rate and every acknowledged item is stored', async () => {
    await simulator?.stop();
    simulator = await startSimulator({ serverUrl: server.url, apiKey, devices: 3, rate: 40, seed: 5, idPrefix: `rate-${process.pid}`, mix: { network: 0 } });
    await simulator.connected();
    await expect.poll(() => simulator!.stats().sdk.acknowledged, { timeout: 10_000 }).toBeGreaterThan(60);
    await simulator.stop();
    const stats = simulator.stats();
    let stored = 0;
    for (const d of simulator.devices) stored += (await itemsOf(d.installId)).length;
    expect(stored).toBe(stats.sdk.acknowledged);
    expect(stats.sdk.dropped + stats.sdk.rejected).toBe(0);
  });
});
