import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INGEST_LIMITS } from '../src/ingest/ingest-limits';
import { startPresenceSweep } from '../src/jobs/presence-sweep';
import { RedisBus } from '../src/live/bus-redis';
import { apiClient, describeApi, signUp, useTwoNodes } from './helpers';
import { closeOf, connectDevice, connectViewer, items } from './live-clients';
import { REDIS_URL, probeRedis } from './support/redis';

const log = Fastify({ logger: false }).log;

const redisAvailable = await probeRedis();

describe.skipIf(!redisAvailable)('Redis live bus', () => {
  let a: RedisBus;
  let b: RedisBus;
  beforeAll(async () => {
    a = new RedisBus(REDIS_URL, log);
    b = new RedisBus(REDIS_URL, log);
    await Promise.all([a.connect(), b.connect()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('delivers across nodes once, counts the nodes listening, and stops after unsubscribe', async () => {
    const topic = `test:${crypto.randomUUID()}`;
    expect(await a.publishCounted(topic, 'nobody')).toBe(0);

    const onA: string[] = [];
    const onB: string[] = [];
    const subB = b.subscribe(topic, (m) => onB.push(m));
    await subB.ready;
    expect(await a.publishCounted(topic, 'first')).toBe(1);
    const subA = a.subscribe(topic, (m) => onA.push(m));
    await subA.ready;
    expect(await a.publishCounted(topic, 'second')).toBe(2);
    a.publish(topic, 'third\nwith a newline');
    await expect.poll(() => onB).toEqual(['first', 'second', 'third\nwith a newline']);
    // The publisher's own subscriber gets its messages at once and never their echo from Redis.
    expect(onA).toEqual(['second', 'third\nwith a newline']);

    subB.unsubscribe();
    expect(await a.publishCounted(topic, 'fourth')).toBe(1);
    subA.unsubscribe();
    expect(await a.publishCounted(topic, 'fifth')).toBe(0);
    expect(onB).toHaveLength(3);
  });

  it('knows which topics other nodes listen to: at once when a subscription is ready, and on joining', async () => {
    const topic = `test:${crypto.randomUUID()}`;
    expect(a.mayHaveSubscribers(topic)).toBe(false);
    const subB = b.subscribe(topic, () => {});
    await subB.ready;
    // Ready means every node heard of it: a publisher asking now cannot skip the message.
    expect(a.mayHaveSubscribers(topic)).toBe(true);

    const c = new RedisBus(REDIS_URL, log);
    await c.connect();
    try {
      expect(c.mayHaveSubscribers(topic)).toBe(true);
      expect(c.mayHaveSubscribers(`test:${crypto.randomUUID()}`)).toBe(false);
      subB.unsubscribe();
      await expect.poll(() => a.mayHaveSubscribers(topic) || c.mayHaveSubscribers(topic)).toBe(false);
    } finally {
      await c.close();
    }
  });
});

/** Two server nodes on one database and one Redis, as behind a load balancer. */
describeApi('scale-out over Redis', () => {
  const { nodeA, nodeB } = useTwoNodes({ config: { redisUrl: REDIS_URL } }, { skip: !redisAvailable });

  it.skipIf(!redisAvailable)('shows a device connected to node A live in a viewer on node B', async () => {
    const account = await signUp(nodeA.url);
    const viewerB = await connectViewer(nodeB.url, account.token);
    const device = await connectDevice(nodeA.url, account.profile.apiKey, { device: { name: 'Node A phone' } });

    const online = await viewerB.next('device_status', (m) => m.deviceId === device.deviceId && m.online);
    expect(online.name).toBe('Node A phone');
    await viewerB.subscribe(device.deviceId);
    const log = items.log('crossed the bus');
    await device.sendItems([log]);
    const live = await viewerB.next('new_request', (m) => m.request.id === log.id);
    expect(live.request).toMatchObject({ type: 'log', details: { message: 'crossed the bus' } });
    expect((await apiClient(nodeB.url, account.token).get('/v1/devices')).body.map((d: { id: string }) => d.id)).toEqual([device.deviceId]);

    // Another account watching on node B sees none of it.
    const stranger = await signUp(nodeB.url);
    const strangerViewer = await connectViewer(nodeB.url, stranger.token);
    await strangerViewer.subscribe(device.deviceId);
    await device.sendItems([items.log('private')]);
    await viewerB.next('new_request', (m) => m.request.type === 'log' && (m.request.details as { message: string }).message === 'private');
    strangerViewer.send({ type: 'ping' });
    await strangerViewer.next('pong');
    expect(strangerViewer.inbox.all.filter((m) => m.type !== 'init' && m.type !== 'pong')).toEqual([]);

    await device.close();
    await viewerB.next('device_status', (m) => m.deviceId === device.deviceId && !m.online);
    await viewerB.close();
    await strangerViewer.close();
  });

  it.skipIf(!redisAvailable)('sends a command through node B to the device on node A, 409 once it is gone', async () => {
    const account = await signUp(nodeA.url);
    const clientB = apiClient(nodeB.url, account.token);
    const device = await connectDevice(nodeA.url, account.profile.apiKey);

    const ping = await clientB.get(`/v1/devices/${device.deviceId}/send-ping`);
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({ success: true, data: { name: 'ping' } });
    expect(device.commands.map((c) => c.name)).toEqual(['ping']);

    // Settings changed on node B reach the device on node A.
    expect((await clientB.post(`/v1/devices/${device.deviceId}/breakpoint`, { breakpointEnabled: true })).status).toBe(200);
    await expect.poll(() => device.commands.map((c) => c.name)).toContain('breakpoint');

    const stranger = await signUp(nodeB.url);
    expect((await stranger.api.get(`/v1/devices/${device.deviceId}/send-ping`)).status).toBe(404);

    await device.close();
    const offline = await clientB.get(`/v1/devices/${device.deviceId}/take-screenshot`);
    expect(offline.status).toBe(409);
    expect(offline.body).toEqual({ error: 'Device is offline' });
  });

  it.skipIf(!redisAvailable)('a device that reconnected through node B stays online when its old connection on node A closes', async () => {
    const account = await signUp(nodeA.url);
    const viewerA = await connectViewer(nodeA.url, account.token);
    const old = await connectDevice(nodeA.url, account.profile.apiKey);
    await viewerA.next('device_status', (m) => m.deviceId === old.deviceId && m.online);
    const moved = await connectDevice(nodeB.url, account.profile.apiKey, { deviceId: old.deviceId });
    // Node B announces the device once commands reach it from every node.
    await expect.poll(() => viewerA.inbox.all.filter((m) => m.type === 'device_status' && m.deviceId === old.deviceId && m.online).length).toBe(2);

    // Node A notices its connection closed only now (a half-open socket found by its heartbeat).
    await old.close();
    const row = () => nodeA.app.ctx.db.selectFrom('devices').select('online').where('id', '=', old.deviceId).executeTakeFirstOrThrow();
    await expect.poll(async () => (await row()).online).toBe(0);
    viewerA.send({ type: 'ping' });
    await viewerA.next('pong');
    expect(viewerA.inbox.all.filter((m) => m.type === 'device_status' && m.deviceId === old.deviceId && !m.online)).toEqual([]);
    // And it is still reachable from node A.
    expect((await apiClient(nodeA.url, account.token).get(`/v1/devices/${old.deviceId}/send-ping`)).status).toBe(200);
    expect(moved.commands.map((c) => c.name)).toEqual(['ping']);
    await moved.close();
    await viewerA.next('device_status', (m) => m.deviceId === old.deviceId && !m.online);
    await viewerA.close();
  });

  it.skipIf(!redisAvailable)('marks offline, on every node, a device left online by a node that died', async () => {
    const account = await signUp(nodeA.url);
    const viewerB = await connectViewer(nodeB.url, account.token);
    const living = await connectDevice(nodeA.url, account.profile.apiKey);
    const orphan = await connectDevice(nodeA.url, account.profile.apiKey);
    await orphan.close();
    await viewerB.next('device_status', (m) => m.deviceId === orphan.deviceId && !m.online);
    // What a node killed with the device connected leaves behind: online, last heard long ago.
    const { db, live } = nodeB.app.ctx;
    await db.updateTable('devices').set({ online: 1, last_seen: Date.now() - 61_000 }).where('id', '=', orphan.deviceId).execute();

    const sweep = startPresenceSweep({ db, events: live.events, limits: DEFAULT_INGEST_LIMITS, now: Date.now, log });
    expect(await sweep.runOnce()).toBe(1);
    await sweep.stop();
    // A second offline status: the sweep's, told through the bus.
    await viewerB.next('device_status', (m) => m.deviceId === orphan.deviceId && !m.online);
    const list = (await apiClient(nodeB.url, account.token).get('/v1/devices')).body as Array<{ id: string; online: boolean }>;
    expect(list.find((d) => d.id === orphan.deviceId)?.online).toBe(false);
    expect(list.find((d) => d.id === living.deviceId)?.online).toBe(true);
    await living.close();
    await viewerB.close();
  });

  it.skipIf(!redisAvailable)('deleting on node B closes the device on node A and tells viewers on both nodes', async () => {
    const account = await signUp(nodeA.url);
    const clientB = apiClient(nodeB.url, account.token);
    const viewerA = await connectViewer(nodeA.url, account.token);
    const viewerB = await connectViewer(nodeB.url, account.token);
    const device = await connectDevice(nodeA.url, account.profile.apiKey);
    await viewerA.subscribe(device.deviceId);
    await device.sendItems([items.log()]);

    const cleared = await clientB.delete(`/v1/devices/${device.deviceId}/requests`);
    expect(cleared.body).toEqual({ success: true, deleted: 1 });
    await viewerA.next('requests_cleared', (m) => m.deviceId === device.deviceId);

    const closed = closeOf(device.ws);
    expect((await clientB.delete(`/v1/devices/${device.deviceId}`)).status).toBe(200);
    expect((await closed).code).toBe(4410);
    await viewerA.next('device_deleted', (m) => m.deviceId === device.deviceId);
    await viewerB.next('device_deleted', (m) => m.deviceId === device.deviceId);
    await viewerA.close();
    await viewerB.close();
  });

  // Issue 12, defect 8: a revoked token's or deleted account's viewers used to keep receiving
  // items for up to 30 s (the heartbeat's token check).
  it.skipIf(!redisAvailable)('closes the viewers on node B at once when the token is signed out, or the account deleted, on node A', async () => {
    const account = await signUp(nodeA.url);
    const signedOut = await connectViewer(nodeB.url, account.token);
    const closedOut = closeOf(signedOut.ws);
    expect((await apiClient(nodeA.url, account.token).post('/v1/auth/logout')).status).toBe(200);
    expect((await closedOut).code).toBe(4401);

    const owner = await signUp(nodeA.url);
    const viewer = await connectViewer(nodeB.url, owner.token);
    const closed = closeOf(viewer.ws);
    expect((await owner.api.delete(`/v1/user/${owner.profile.id}`)).status).toBe(200);
    expect((await closed).code).toBe(4401);
  });
});
