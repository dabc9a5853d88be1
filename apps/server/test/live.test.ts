import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { DeviceItem } from '@spyglass/protocol';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { closeOf, connectDevice, connectViewer, items } from './live-clients';

describeApi('viewer live channel', () => {
  let server: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    server = await startTestServer({ logger: { level: 'trace', stream } });
  });
  afterAll(() => server?.close());

  const wsUrl = (query: string) => `${server.url.replace(/^http/, 'ws')}/ws?${query}`;

  it('closes a viewer without a valid token with 4401', async () => {
    for (const query of ['type=viewer', 'type=viewer&token=not-a-token']) {
      const ws = new WebSocket(wsUrl(query));
      expect(await closeOf(ws)).toEqual({ code: 4401, reason: 'Unauthorized' });
    }
  });

  it('refuses upgrades that are not the live channel', async () => {
    for (const path of ['/ws?type=unknown', '/elsewhere?type=viewer']) {
      const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}`);
      const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(path.startsWith('/ws') ? 400 : 404);
    }
  });

  it('answers init with a connection id, and pong to ping', async () => {
    const { token } = await signUp(server.url);
    const viewer = await connectViewer(server.url, token);
    expect(viewer.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    const other = await connectViewer(server.url, token);
    expect(other.connectionId).not.toBe(viewer.connectionId);
    viewer.send({ type: 'ping' });
    await viewer.next('pong');
    // Unknown or malformed messages are ignored, not fatal.
    viewer.send({ type: 'answer', sdp: 'x' });
    viewer.ws.send('not json');
    viewer.send({ type: 'ping' });
    await viewer.next('pong');
    await viewer.close();
    await other.close();
  });

  it('keeps the token out of the logs', async () => {
    const { token } = await signUp(server.url);
    const viewer = await connectViewer(server.url, token);
    await viewer.close();
    const bad = new WebSocket(wsUrl('type=viewer&token=secret-looking-token-123'));
    await closeOf(bad);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(token);
    expect(logLines.join('\n')).not.toContain('secret-looking-token-123');
  });

  it('sends a committed batch as one new_requests message to viewers that ask for batches, one new_request per item to the others', async () => {
    const owner = await signUp(server.url);
    const batched = await connectViewer(server.url, owner.token);
    const single = await connectViewer(server.url, owner.token);
    const device = await connectDevice(server.url, owner.profile.apiKey);
    await batched.subscribe(device.deviceId, { batches: true });
    await single.subscribe(device.deviceId);

    const request = items.network();
    const sent = [items.log('one'), request, items.log('three')];
    await device.sendItems(sent);
    const batch = await batched.next('new_requests');
    expect(batch.deviceId).toBe(device.deviceId);
    expect(batch.requests.map((r) => [r.id, r.num])).toEqual(sent.map((item, i) => [item.id, i + 1]));
    const one = await single.next('new_request', (m) => m.request.id === sent[2]!.id);
    expect(single.inbox.all.filter((m) => m.type === 'new_request').map((m) => m.type === 'new_request' && m.request.id)).toEqual(sent.map((item) => item.id));
    expect(one.request).toEqual(batch.requests[2]);

    // A completion is sent as stored: it keeps its number.
    const { method, url } = (request.details as { request: { method: string; url: string } }).request;
    await device.sendItems([{ ...request, details: { request: { method, url, headers: {} }, response: { statusCode: 201, headers: {}, body: '{}' } } } as DeviceItem]);
    const completed = await batched.next('new_requests', (m) => m.requests.some((r) => r.id === request.id && r.status === 201));
    expect(completed.requests).toHaveLength(1);
    expect(completed.requests[0]).toMatchObject({ id: request.id, num: 2, status: 201 });
    await single.next('new_request', (m) => m.request.id === request.id && m.request.status === 201);
    expect(batched.inbox.all.some((m) => m.type === 'new_request')).toBe(false);

    await device.close();
    await batched.close();
    await single.close();
  });

  it('shows a device coming online, its items and going offline, to the viewers of its account only', async () => {
    const owner = await signUp(server.url);
    const stranger = await signUp(server.url);
    const viewer = await connectViewer(server.url, owner.token);
    const strangerViewer = await connectViewer(server.url, stranger.token);

    const device = await connectDevice(server.url, owner.profile.apiKey, { device: { name: 'Ada’s iPhone', group: 'QA' } });
    const online = await viewer.next('device_status', (m) => m.deviceId === device.deviceId && m.online);
    expect(online).toMatchObject({ name: 'Ada’s iPhone', group: 'QA', sdkVersion: '1.4.600' });
    expect(online.device).toMatchObject({ id: device.deviceId, platform: 'ios', online: true });

    // Items reach only the viewers watching that device.
    await viewer.subscribe(device.deviceId);
    const log = items.log('first log');
    await device.sendItems([log, items.network()]);
    const first = await viewer.next('new_request', (m) => m.request.id === log.id);
    expect(first).toMatchObject({ deviceId: device.deviceId, request: { type: 'log', num: 1, details: { message: 'first log' } } });
    await viewer.next('new_request', (m) => m.request.type === 'network');

    // Another account's viewer, even subscribed to this device id, sees nothing of it.
    await strangerViewer.subscribe(device.deviceId);
    const later = items.log('second log');
    await device.sendItems([later]);
    await viewer.next('new_request', (m) => m.request.id === later.id);

    // What the device reports about itself later replaces the device in the list.
    device.ws.send(JSON.stringify({ type: 'device_info', device: { platform: 'ios', name: 'Ada’s iPhone', batteryLevel: 0.42, batteryState: 'charging' } }));
    const update = await viewer.next('device_update', (m) => m.device.id === device.deviceId);
    expect(update.device).toMatchObject({ batteryLevel: 0.42, batteryState: 'charging', online: true });

    await device.close();
    const offline = await viewer.next('device_status', (m) => m.deviceId === device.deviceId && !m.online);
    expect(offline.online).toBe(false);

    strangerViewer.send({ type: 'ping' });
    await strangerViewer.next('pong');
    expect(strangerViewer.inbox.all.filter((m) => m.type !== 'init' && m.type !== 'pong')).toEqual([]);
    await viewer.close();
    await strangerViewer.close();
  });
});
