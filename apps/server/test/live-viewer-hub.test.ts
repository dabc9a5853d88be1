import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { InProcessBus, topics } from '../src/live/bus';
import { ViewerHub } from '../src/live/viewer-hub';
import { closeOf, connectViewer } from './live-clients';

const log = Fastify({ logger: false }).log;
const LIMIT = 256 * 1024;

/** A hub behind a bare ws server that takes every viewer as account `user-1`. */
async function startHub(options: { heartbeatMs?: number; maxViewersPerAccount?: number; authorized?: { value: boolean } } = {}) {
  const bus = new InProcessBus(log);
  const hub = new ViewerHub({ bus, log, maxBufferedBytes: LIMIT, heartbeatMs: options.heartbeatMs, maxViewersPerAccount: options.maxViewersPerAccount });
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const serverSockets: WebSocket[] = [];
  wss.on('connection', (ws) => {
    serverSockets.push(ws);
    void hub.attach(ws, { userId: 'user-1', stillAuthorized: async () => options.authorized?.value ?? true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    bus, hub, url, serverSockets,
    /** An item-sized message for the viewers watching device-1. */
    publishToWatchers: (id: string) =>
      bus.publish(topics.deviceViewers('user-1', 'device-1'), JSON.stringify({ type: 'requests_deleted', deviceId: 'device-1', ids: [id] })),
    async close() {
      hub.close();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('viewer hub', () => {
  let hubServer: Awaited<ReturnType<typeof startHub>> | undefined;
  afterEach(async () => {
    await hubServer?.close();
    hubServer = undefined;
  });

  it('bounds what a viewer that stops reading holds, then tells it to resync', async () => {
    hubServer = await startHub();
    const viewer = await connectViewer(hubServer.url, 'unused');
    await viewer.subscribe('device-1');
    const serverSocket = hubServer.serverSockets[0]!;
    // The viewer stops reading: the kernel buffers fill, then the hub's queue would grow.
    (viewer.ws as unknown as { _socket: { pause(): void } })._socket.pause();

    const watched = topics.deviceViewers('user-1', 'device-1');
    const padding = 'x'.repeat(8 * 1024);
    let sent = 0;
    for (let round = 0; round < 2000 && hubServer.bus.mayHaveSubscribers(watched); round++) {
      for (let i = 0; i < 50; i++, sent++) hubServer.publishToWatchers(`${sent}-${padding}`);
      await tick();
    }
    // Over the limit, the hub stopped sending and left the device's topic: with no other
    // watcher, publishers skip serializing its items altogether.
    expect(serverSocket.bufferedAmount).toBeGreaterThan(LIMIT);
    expect(serverSocket.bufferedAmount).toBeLessThanOrEqual(LIMIT + padding.length + 1024);
    expect(hubServer.bus.mayHaveSubscribers(watched)).toBe(false);
    const atOverflow = serverSocket.bufferedAmount;
    hubServer.bus.publish(topics.account('user-1'), JSON.stringify({ type: 'device_deleted', deviceId: 'device-9' }));
    expect(serverSocket.bufferedAmount).toBe(atOverflow);

    (viewer.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const resync = await viewer.next('resync', undefined, 10_000);
    expect(resync.deviceId).toBe('device-1');
    const delivered = viewer.inbox.all.filter((m) => m.type === 'requests_deleted').length;
    expect(delivered).toBeLessThan(sent);
    expect(hubServer.bus.mayHaveSubscribers(watched)).toBe(true);

    // Caught up: live messages flow again.
    hubServer.publishToWatchers('after-resync');
    await viewer.next('requests_deleted', (m) => m.ids[0] === 'after-resync');
    await viewer.close();
  });

  it('writes one buffer per message to every viewer of the account, filtered by subscription', async () => {
    hubServer = await startHub();
    const a = await connectViewer(hubServer.url, 'unused');
    const b = await connectViewer(hubServer.url, 'unused');
    await a.subscribe('device-a');
    await b.subscribe('device-b');
    hubServer.bus.publish(topics.deviceViewers('user-1', 'device-a'), JSON.stringify({ type: 'requests_cleared', deviceId: 'device-a' }));
    hubServer.bus.publish(topics.account('user-1'), JSON.stringify({ type: 'device_deleted', deviceId: 'device-c' }));
    await a.next('requests_cleared');
    await a.next('device_deleted');
    await b.next('device_deleted');
    expect(b.inbox.all.some((m) => m.type === 'requests_cleared')).toBe(false);
    expect(hubServer.hub.size).toBe(2);
    // Switching devices moves the viewer; the last viewer of a device releases its topic.
    await a.subscribe('device-b');
    expect(hubServer.bus.mayHaveSubscribers(topics.deviceViewers('user-1', 'device-a'))).toBe(false);
    hubServer.bus.publish(topics.deviceViewers('user-1', 'device-b'), JSON.stringify({ type: 'requests_cleared', deviceId: 'device-b' }));
    await a.next('requests_cleared', (m) => m.deviceId === 'device-b');
    await b.next('requests_cleared', (m) => m.deviceId === 'device-b');
    await a.close();
    await b.close();
    await expect.poll(() => hubServer!.hub.size).toBe(0);
    expect(hubServer.bus.mayHaveSubscribers(topics.account('user-1'))).toBe(false);
  });

  it('closes a viewer whose token was revoked since it connected, with 4401', async () => {
    const authorized = { value: true };
    hubServer = await startHub({ heartbeatMs: 50, authorized });
    const viewer = await connectViewer(hubServer.url, 'unused');
    const closed = closeOf(viewer.ws);
    viewer.send({ type: 'ping' });
    await viewer.next('pong');
    authorized.value = false;
    expect(await closed).toEqual({ code: 4401, reason: 'Unauthorized' });
    await expect.poll(() => hubServer!.hub.size).toBe(0);
  });

  it('closes a viewer that floods it with messages (1008)', async () => {
    hubServer = await startHub();
    const viewer = await connectViewer(hubServer.url, 'unused');
    const closed = closeOf(viewer.ws);
    for (let i = 0; i < 500; i++) viewer.send({ type: 'subscribe', deviceId: `device-${i}` });
    expect(await closed).toEqual({ code: 1008, reason: 'Too many messages' });
    await expect.poll(() => hubServer!.hub.size).toBe(0);
    expect(hubServer.bus.mayHaveSubscribers(topics.deviceViewers('user-1', 'device-99'))).toBe(false);
  });

  it('refuses viewers over the account’s limit with 1013, and takes one again when a place frees', async () => {
    hubServer = await startHub({ maxViewersPerAccount: 2 });
    const first = await connectViewer(hubServer.url, 'unused');
    await connectViewer(hubServer.url, 'unused');
    const third = new WebSocket(hubServer.url.replace(/^http/, 'ws'));
    expect(await closeOf(third)).toEqual({ code: 1013, reason: 'Too many live connections for this account' });
    await first.close();
    await expect.poll(() => hubServer!.hub.size).toBe(1);
    const again = await connectViewer(hubServer.url, 'unused');
    expect(again.connectionId).not.toBe('');
  });
});
