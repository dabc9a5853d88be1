import { afterEach, describe, expect, it } from 'vitest';
import type { CommandFrame } from '@spyglass/protocol';
import { createSpyglass } from './node';
import type { SpyglassClient } from './options';
import { SDK_VERSION } from './version';
import type { SpyglassError } from './errors';
import { memoryStorage } from './install-id';
import { ProtocolServer } from './testing/protocol-server';

let server: ProtocolServer;
let client: SpyglassClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
  await server?.close();
});

const start = (extra: Partial<Parameters<typeof createSpyglass>[0]> = {}) =>
  (client = createSpyglass({
    serverUrl: server.url,
    apiKey: 'sg_live_test',
    capture: { fetch: false, xhr: false, http: false },
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    flushIntervalMs: 5,
    // Not the user's config directory (the Node default).
    storage: memoryStorage(),
    ...extra,
  }));

describe('Spyglass client', () => {
  it('says hello with its install id and device fields, then delivers items of every type', async () => {
    server = await ProtocolServer.start();
    const storage = memoryStorage();
    const spyglass = start({ storage, device: { platform: 'ios', name: 'QA iPhone', model: 'iPhone15,2', bundleId: 'com.example.shop' } });
    const ids = [
      spyglass.log('hello'),
      spyglass.event('screen_view', { properties: { screen: 'Home' } }),
      spyglass.screenshot({ image: new Uint8Array([1, 2, 3]) }),
      spyglass.analyticsEvent('purchase', { value: 3 }),
    ];
    await spyglass.flush();
    expect([...server.stored.keys()].sort()).toEqual([...ids].sort());
    const hello = server.hellos[0]!;
    expect(hello).toMatchObject({ protocolVersion: 2, apiKey: 'sg_live_test', device: { platform: 'ios', name: 'QA iPhone', bundleId: 'com.example.shop', sdkVersion: SDK_VERSION } });
    expect(hello.deviceId).toBe(await storage.getItem('spyglass.installId'));
    expect(spyglass.status).toBe('connected');
    expect(spyglass.deviceId).toBe(hello.deviceId);
    expect(spyglass.stats()).toMatchObject({ acknowledged: 4, queued: 0, unacknowledged: 0, dropped: 0 });
  });

  it('keeps items while offline and resends unacknowledged batches after reconnecting', async () => {
    server = await ProtocolServer.start();
    server.acking = false;
    const spyglass = start();
    await new Promise<void>((resolve) => spyglass.on('welcome', () => resolve()));
    const first = [spyglass.log('one'), spyglass.log('two')];
    await expect.poll(() => server.seqs.length).toBeGreaterThan(0);
    const sentSeqs = [...server.seqs];
    // The server got the batch but the ack never came: it must travel again, same seq.
    server.dropAll();
    const offline = spyglass.log('while offline');
    server.acking = true;
    await spyglass.flush();
    expect(server.hellos).toHaveLength(2);
    expect(spyglass.stats()).toMatchObject({ acknowledged: 3, dropped: 0 });
    expect(server.seqs.slice(sentSeqs.length, sentSeqs.length + sentSeqs.length)).toEqual(sentSeqs);
    expect([...server.stored.keys()].sort()).toEqual([...first, offline].sort());
  });

  it('surfaces a bad API key as a fatal error and stops reconnecting', async () => {
    server = await ProtocolServer.start();
    server.refuseKey = true;
    const errors: SpyglassError[] = [];
    const spyglass = start({ onError: (e) => errors.push(e) });
    await expect.poll(() => spyglass.status).toBe('failed');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'bad_api_key', fatal: true, message: 'Invalid API key' });
    await new Promise((r) => setTimeout(r, 150));
    expect(server.hellos).toHaveLength(1);
    await expect(spyglass.flush()).rejects.toMatchObject({ code: 'bad_api_key' });
  });

  it('gives the app its global fetch back when refused for good', async () => {
    server = await ProtocolServer.start();
    server.refuseKey = true;
    const original = globalThis.fetch;
    const spyglass = start({ capture: { fetch: true, xhr: false, http: false } });
    expect(globalThis.fetch).toBe(spyglass.fetch);
    await expect.poll(() => spyglass.status).toBe('failed');
    expect(globalThis.fetch).toBe(original);
  });

  it('answers commands with result frames', async () => {
    server = await ProtocolServer.start();
    let sheets = 0;
    const spyglass = start({
      screenshotCapturer: () => ({ image: new Uint8Array([9, 9]), name: 'Remote', width: 1, height: 1 }),
      onOpenSheet: () => void sheets++,
    });
    await new Promise<void>((resolve) => spyglass.on('welcome', () => resolve()));
    const results = () => server.frames.filter((f) => f.type === 'result');
    const command = (id: string, name: CommandFrame['name'], args?: Record<string, unknown>) => server.send({ type: 'command', id, name, ...(args ? { args } : {}) });

    command('c1', 'ping');
    command('c2', 'take_screenshot');
    command('c3', 'open_sheet');
    command('c4', 'feature_toggles', { featureToggles: { logs: false, network: true, prints: true, events: true } });
    command('c5', 'mocks', {});
    server.send({ type: 'command', id: 'c6', name: 'from_the_future' });
    await expect.poll(() => results().length).toBe(6);
    const byId = Object.fromEntries(results().map((r) => [r.commandId, r]));
    expect(byId.c1).toMatchObject({ ok: true, data: { pong: true } });
    expect(byId.c2).toMatchObject({ ok: true });
    expect(byId.c3).toMatchObject({ ok: true });
    expect(byId.c4).toMatchObject({ ok: true });
    // A mocks set that is not one is refused (the shape is DeviceMocks, docs/protocol.md §6).
    expect(byId.c5).toMatchObject({ ok: false, error: expect.stringContaining('revision') });
    expect(byId.c6).toMatchObject({ ok: false, error: 'Unknown command: from_the_future' });
    expect(sheets).toBe(1);
    await spyglass.flush();
    const stored = [...server.stored.values()];
    expect(stored.find((i) => i.type === 'log' && i.details.message === 'Pong')).toBeDefined();
    expect(stored.find((i) => i.type === 'screenshot' && i.details.name === 'Remote')).toBeDefined();
    expect(spyglass.featureToggles.logs).toBe(false);
    expect(spyglass.log('not captured')).toBeUndefined();
    expect(spyglass.stats().skipped).toBe(1);
    server.send({ type: 'command', id: 'c7', name: 'feature_toggles', args: { featureToggles: { logs: true, network: false, prints: true, events: true } } });
    await expect.poll(() => spyglass.featureToggles.network).toBe(false);
    const before = server.stored.size;
    await spyglass.fetch('http://127.0.0.1:9/').catch(() => undefined);
    expect(spyglass.stats().skipped).toBe(2);
    await spyglass.flush();
    expect([...server.stored.values()].filter((i) => i.type === 'network')).toHaveLength(0);
    expect(server.stored.size).toBe(before);
  });

  it('sends a batch the server refused for its rate again, under a new number', async () => {
    server = await ProtocolServer.start();
    const spyglass = start();
    await new Promise<void>((resolve) => spyglass.on('welcome', () => resolve()));
    server.acking = false;
    const id = spyglass.log('limited');
    await expect.poll(() => server.seqs.length).toBe(1);
    server.acking = true;
    server.send({ type: 'error', code: 'rate_limited', message: 'Too many items', seq: server.seqs[0], retryAfterMs: 30 });
    await spyglass.flush();
    expect(server.hellos).toHaveLength(1);
    expect(server.seqs).toEqual([1, 2]);
    expect(server.stored.has(id!)).toBe(true);
  });

  it('leaves a silent connection after the heartbeat timeout and carries on over a new one', async () => {
    server = await ProtocolServer.start();
    server.heartbeatIntervalMs = 40;
    const spyglass = start();
    await new Promise<void>((resolve) => spyglass.on('welcome', () => resolve()));
    expect(server.frames.some((f) => f.type === 'ping')).toBe(false);
    await expect.poll(() => server.frames.filter((f) => f.type === 'ping').length).toBeGreaterThan(0);
    server.silenceCurrent();
    const id = spyglass.log('sent into the void');
    await spyglass.flush();
    expect(server.hellos).toHaveLength(2);
    expect(server.stored.has(id!)).toBe(true);
  });

  it('sends changed device fields as device_info', async () => {
    server = await ProtocolServer.start();
    const spyglass = start({ device: { platform: 'android', batteryLevel: 0.9 } });
    await new Promise<void>((resolve) => spyglass.on('welcome', () => resolve()));
    spyglass.updateDevice({ batteryLevel: 0.42, deviceOrientation: 'landscapeLeft' });
    await expect.poll(() => server.frames.find((f) => f.type === 'device_info')).toMatchObject({
      device: { platform: 'android', batteryLevel: 0.42, deviceOrientation: 'landscapeLeft' },
    });
  });

  it('drops the oldest items beyond its bound while the server is away, and counts them', async () => {
    server = await ProtocolServer.start();
    await server.close();
    const states: boolean[] = [];
    const spyglass = start({ outbox: { maxBytes: 2000 } });
    spyglass.on('backpressure', (state) => states.push(state.active));
    for (let i = 0; i < 25; i++) spyglass.log(`line ${i}`);
    const stats = spyglass.stats();
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.queued + stats.dropped).toBe(25);
    expect(stats.bytes).toBeLessThanOrEqual(2000);
    // The app was told before anything was dropped.
    expect(stats).toMatchObject({ backpressure: true, maxBytes: 2000 });
    expect(states).toEqual([true]);
  });
});
