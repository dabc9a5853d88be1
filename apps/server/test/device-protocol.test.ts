import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_CLOSE_CODES, DEVICE_LIMIT, DEVICE_LIMIT_MESSAGE, DEFAULT_FEATURE_TOGGLES, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION,
  type ErrorFrame, type WelcomeFrame,
} from '@spyglass/protocol';
import { DEFAULT_INGEST_LIMITS } from '../src/ingest/ingest-limits';
import { findDevice, registerDeviceOnHello, updateDevice } from '../src/repositories/devices.repository';
import { findItemsPage } from '../src/repositories/items.repository';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { TestDevice, itemId, itemsOfEveryType, logItem } from './device-protocol-client';

describeApi('device protocol', () => {
  let server: TestServer;
  let apiKey: string;
  let userId: string;

  beforeAll(async () => {
    server = await startTestServer({
      config: { ingest: { ...DEFAULT_INGEST_LIMITS, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, helloTimeoutMs: 500 } },
    });
    const account = await signUp(server.url);
    apiKey = account.profile.apiKey;
    userId = account.profile.id;
  });
  afterAll(() => server?.close());

  describe('hello', () => {
    it('welcomes a device with its id and feature toggles, and registers it online', async () => {
      const deviceId = itemId('dev');
      const { client, welcome } = await TestDevice.online(server.url, apiKey, deviceId, { platform: 'android', model: 'Pixel 8', sdkVersion: '1.0.90' });
      expect(welcome).toMatchObject<Partial<WelcomeFrame>>({
        type: 'welcome', protocolVersion: PROTOCOL_VERSION, deviceId, featureToggles: DEFAULT_FEATURE_TOGGLES, breakpointEnabled: false,
      });
      expect(welcome.limits.maxItemsPerFrame).toBeGreaterThan(0);
      const device = await findDevice(server.app.ctx.db, userId, deviceId);
      expect(device).toMatchObject({ id: deviceId, platform: 'android', model: 'Pixel 8', sdkVersion: '1.0.90', name: 'Test iPhone', online: true });
      await client.close();
    });

    it('refuses a wrong API key with bad_api_key and close code 4401', async () => {
      const client = await TestDevice.connect(server.url);
      client.hello('sg_live_wrong', itemId('dev'));
      const error = await client.next<ErrorFrame>();
      expect(error).toMatchObject({ type: 'error', code: 'bad_api_key', message: 'Invalid API key' });
      expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.badApiKey);
    });

    it('closes with 4400 when the first frame is not a hello', async () => {
      for (const first of ['not json', JSON.stringify({ type: 'items', seq: 1, items: [] }), JSON.stringify({ type: 'hello' })]) {
        const client = await TestDevice.connect(server.url);
        client.send(first);
        expect((await client.next<ErrorFrame>()).code).toBe('bad_hello');
        expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.badHello);
      }
    });

    it('keeps frames sent before the welcome and handles them after it', async () => {
      const deviceId = itemId('dev');
      const client = await TestDevice.connect(server.url);
      client.hello(apiKey, deviceId);
      client.sendItems(1, [logItem('eager')]);
      client.send({ type: 'ping', t: 2 });
      expect((await client.next()).type).toBe('welcome');
      expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
      expect(await client.next((f) => f.type === 'pong')).toEqual({ type: 'pong', t: 2 });
      await client.close();
    });

    it('refuses a device id that could not be an install id', async () => {
      const client = await TestDevice.connect(server.url);
      client.hello(apiKey, '../../etc/passwd');
      const error = await client.next<ErrorFrame>();
      expect(error.code).toBe('bad_hello');
      expect(error.message).toContain('deviceId may hold letters, digits and . _ : -');
      expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.badHello);
    });

    it('closes a connection that never says hello', async () => {
      const client = await TestDevice.connect(server.url);
      expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.badHello);
    });

    it('refuses protocol versions outside the supported range with 4426', async () => {
      for (const version of [MIN_PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1]) {
        const client = await TestDevice.connect(server.url);
        client.hello(apiKey, itemId('dev'), {}, version);
        const error = await client.next<ErrorFrame>();
        expect(error.code).toBe('unsupported_protocol_version');
        expect(error.message).toBe(`Protocol version ${version} is not supported: this server accepts versions ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}`);
        expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.unsupportedVersion);
      }
    });
  });

  it(`allows ${DEVICE_LIMIT} devices per account, and a known device reconnects at the limit`, async () => {
    const account = await signUp(server.url);
    const db = server.app.ctx.db;
    for (let i = 0; i < DEVICE_LIMIT - 1; i++) {
      const outcome = await registerDeviceOnHello(db, account.profile.id, itemId(`bulk${i}`), { platform: 'ios' }, Date.now());
      expect(outcome.ok).toBe(true);
    }
    const lastId = itemId('last');
    const { client: last } = await TestDevice.online(server.url, account.profile.apiKey, lastId);
    await last.close();
    // Reconnecting is not a new device.
    const { client: again } = await TestDevice.online(server.url, account.profile.apiKey, lastId);
    await again.close();

    const extra = await TestDevice.connect(server.url);
    extra.hello(account.profile.apiKey, itemId('extra'));
    const error = await extra.next<ErrorFrame>();
    expect(error).toMatchObject({ code: 'device_limit', message: DEVICE_LIMIT_MESSAGE });
    expect((await extra.closed).code).toBe(DEVICE_CLOSE_CODES.deviceLimit);
  });

  it('counts two new devices saying hello at once one after the other', async () => {
    const account = await signUp(server.url);
    const db = server.app.ctx.db;
    for (let i = 0; i < DEVICE_LIMIT - 1; i++) {
      await registerDeviceOnHello(db, account.profile.id, itemId(`bulk${i}`), { platform: 'android' }, Date.now());
    }
    const racers = await Promise.all([TestDevice.connect(server.url), TestDevice.connect(server.url), TestDevice.connect(server.url)]);
    for (const racer of racers) racer.hello(account.profile.apiKey, itemId('racer'));
    const answers = await Promise.all(racers.map((r) => r.next()));
    expect(answers.map((a) => (a.type === 'error' ? a.code : a.type)).sort()).toEqual(['device_limit', 'device_limit', 'welcome']);
    for (const racer of racers) racer.ws.close();
  });

  describe('heartbeats', () => {
    it('pings the device, answers its pings, and marks a silent device offline with lastSeen', async () => {
      const deviceId = itemId('dev');
      const { client } = await TestDevice.online(server.url, apiKey, deviceId);
      const ping = await client.next((f) => f.type === 'ping');
      expect(ping.type).toBe('ping');
      client.send({ type: 'ping', t: 7 });
      expect(await client.next((f) => f.type === 'pong')).toEqual({ type: 'pong', t: 7 });
      // Now stay silent: the server closes with 4408 and records the device offline.
      const silentSince = Date.now();
      expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.heartbeatTimeout);
      await expect.poll(async () => (await findDevice(server.app.ctx.db, userId, deviceId))?.online).toBe(false);
      const device = await findDevice(server.app.ctx.db, userId, deviceId);
      expect(Date.parse(device!.lastSeen)).toBeGreaterThanOrEqual(silentSince - 1000);
    });

    it('keeps a device that answers pings online', async () => {
      const deviceId = itemId('dev');
      const { client } = await TestDevice.online(server.url, apiKey, deviceId);
      client.ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type === 'ping') client.send({ type: 'pong', t: frame.t });
      });
      await new Promise((r) => setTimeout(r, 1000));
      expect(client.ws.readyState).toBe(client.ws.OPEN);
      expect((await findDevice(server.app.ctx.db, userId, deviceId))?.online).toBe(true);
      await client.close();
      await expect.poll(async () => (await findDevice(server.app.ctx.db, userId, deviceId))?.online).toBe(false);
    });
  });

  describe('commands', () => {
    it('delivers ping, take screenshot, open sheet and feature toggles, and relays the result frame', async () => {
      const deviceId = itemId('dev');
      const { client } = await TestDevice.online(server.url, apiKey, deviceId);
      const commands = server.app.ctx.live.commands;
      const args = { featureToggles: { ...DEFAULT_FEATURE_TOGGLES, logs: false } };
      for (const [name, commandArgs] of [['ping', undefined], ['take_screenshot', undefined], ['open_sheet', undefined], ['feature_toggles', args]] as const) {
        const sent = commands.send(userId, deviceId, name, commandArgs);
        const command = await client.next((f) => f.type === 'command');
        expect(command).toMatchObject({ type: 'command', name, ...(commandArgs ? { args: commandArgs } : {}) });
        client.send({ type: 'result', commandId: command.type === 'command' ? command.id : '', ok: true, data: { name } });
        await expect(sent).resolves.toEqual({ ok: true, data: { name } });
      }
      await client.close();
    });
  });

  it('a newer connection of the same device replaces the older one, which does not mark it offline', async () => {
    const deviceId = itemId('dev');
    const { client: first } = await TestDevice.online(server.url, apiKey, deviceId);
    const { client: second } = await TestDevice.online(server.url, apiKey, deviceId);
    expect((await first.closed).code).toBe(DEVICE_CLOSE_CODES.replaced);
    second.sendItems(1, [logItem('after reconnect')]);
    expect((await second.ack(1)).type).toBe('ack');
    expect((await findDevice(server.app.ctx.db, userId, deviceId))?.online).toBe(true);
    await second.close();
  });

  it('updates what the device reports with device_info', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.send({ type: 'device_info', device: { platform: 'ios', name: 'Renamed', batteryLevel: 0.42 } });
    await expect.poll(async () => (await findDevice(server.app.ctx.db, userId, deviceId))?.batteryLevel).toBe(0.42);
    // A name set in the dashboard wins over the one the device reports.
    await updateDevice(server.app.ctx.db, userId, deviceId, { name: 'My test phone' });
    client.send({ type: 'device_info', device: { platform: 'ios', name: 'Device name', batteryLevel: 0.4 } });
    // device_info is written at most once a second (the last one wins).
    await expect.poll(async () => (await findDevice(server.app.ctx.db, userId, deviceId))?.batteryLevel, { timeout: 5000 }).toBe(0.4);
    expect((await findDevice(server.app.ctx.db, userId, deviceId))?.name).toBe('My test phone');
    await client.close();
  });

  describe('compatibility rule', () => {
    // Frames exactly as an SDK speaking protocol version 1 sends them. When PROTOCOL_VERSION is
    // bumped, these stay as they are: every version from MIN_PROTOCOL_VERSION up must still work.
    const V1_DEVICE = { platform: 'ios', name: 'iPhone', model: 'iPhone 12', systemVersion: '17.2', sdkVersion: '1.4.600', bundleId: 'com.example.app' };
    const v1Frames = (deviceId: string, apiKey: string, idPrefix: string) => ({
      hello: `{"type":"hello","protocolVersion":1,"apiKey":"${apiKey}","deviceId":"${deviceId}","device":${JSON.stringify(V1_DEVICE)}}`,
      items: `{"type":"items","seq":0,"items":[`
        + `{"id":"${idPrefix}-1","type":"network","createdAt":"2026-01-02T03:04:05.000Z","details":{"request":{"method":"GET","url":"https://example.com/a","headers":{}}}},`
        + `{"id":"${idPrefix}-2","type":"log","createdAt":"2026-01-02T03:04:05.100Z","level":"error","details":{"message":"boom","stackTrace":[{"methodName":"main","lineNumber":3}]}},`
        + `{"id":"${idPrefix}-3","type":"event","createdAt":"2026-01-02T03:04:05.200Z","details":{"name":"tap"}},`
        + `{"id":"${idPrefix}-4","type":"screenshot","createdAt":"2026-01-02T03:04:05.300Z","details":{"name":"Home","image":"aGVsbG8="}},`
        + `{"id":"${idPrefix}-5","type":"firebaseAnalytics","createdAt":"2026-01-02T03:04:05.400Z","details":{"name":"login","payload":{"method":"email"}}}]}`,
      completion: `{"type":"items","seq":1,"items":[{"id":"${idPrefix}-1","type":"network","createdAt":"2026-01-02T03:04:05.000Z","details":{"request":{"method":"GET","url":"https://example.com/a","headers":{}},"response":{"statusCode":200,"headers":{},"body":"ok"}}}]}`,
      deviceInfo: `{"type":"device_info","device":{"platform":"ios","batteryLevel":0.5}}`,
      ping: `{"type":"ping","t":1}`,
    });

    for (let version = MIN_PROTOCOL_VERSION; version <= PROTOCOL_VERSION; version++) {
      it(`accepts every frame of protocol version ${version}`, async () => {
        const deviceId = itemId('compat');
        const frames = v1Frames(deviceId, apiKey, itemId('c'));
        const client = await TestDevice.connect(server.url);
        client.send(frames.hello.replace('"protocolVersion":1', `"protocolVersion":${version}`));
        expect((await client.next()).type).toBe('welcome');
        client.send(frames.items);
        expect(await client.ack(0)).toEqual({ type: 'ack', seq: 0 });
        client.send(frames.completion);
        expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
        client.send(frames.deviceInfo);
        client.send(frames.ping);
        expect(await client.next((f) => f.type === 'pong')).toEqual({ type: 'pong', t: 1 });
        const page = await findItemsPage(server.app.ctx.db, userId, { deviceId, limit: 100 });
        expect(page.items.map((i) => i.type).sort()).toEqual(['event', 'firebaseAnalytics', 'log', 'network', 'screenshot']);
        expect(page.items.find((i) => i.type === 'network')?.status).toBe(200);
        await client.close();
      });
    }
  });

  it('every item type of the protocol is stored', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    const items = itemsOfEveryType();
    client.sendItems(5, items);
    expect(await client.ack(5)).toEqual({ type: 'ack', seq: 5 });
    const page = await findItemsPage(server.app.ctx.db, userId, { deviceId, limit: 100 });
    expect(page.items.map((i) => i.id).sort()).toEqual(items.map((i) => i.id).sort());
    await client.close();
  });
});
