import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_INGEST_LIMITS } from '../src/ingest/ingest-limits';
import { apiClient, describeApi, engine, signUp, startTestServer, startTwoNodes, type TestServer, type TwoNodes } from './helpers';
import { connectDevice, items } from './live-clients';
import { isolatedRedisUrl, probeRedis } from './support/redis';

const redisAvailable = await probeRedis();

/** Two nodes on one database and one Redis: limits count every node's traffic together. */
describeApi('limits shared by the nodes through Redis', () => {
  const AUTH_PER_IP = 6;
  const DEVICE_LIMIT = 3;
  let nodes: TwoNodes | undefined;
  let nodeA: TestServer;
  let nodeB: TestServer;
  let redis: Redis;

  beforeAll(async () => {
    if (!redisAvailable) return;
    // A Redis database of its own per engine: the per-IP counter of 127.0.0.1 is this file's alone.
    const redisUrl = await isolatedRedisUrl(engine === 'postgres' ? 12 : 11);
    redis = new Redis(redisUrl);
    nodes = await startTwoNodes({
      config: {
        redisUrl,
        authRateLimit: { perIp: AUTH_PER_IP, perEmail: 1000, windowS: 60 },
        // 20 items per 2 s for the whole account, wherever its devices are connected.
        ingest: { ...DEFAULT_INGEST_LIMITS, accountItemsPerSecond: 10, accountItemsBurst: 20, deviceLimit: DEVICE_LIMIT },
      },
    });
    ({ nodeA, nodeB } = nodes);
  });
  afterAll(async () => {
    await nodes?.close();
    redis?.disconnect();
  });

  it.skipIf(!redisAvailable)('limits auth attempts from one address spread over both nodes as one client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_PER_IP + 2; i++) {
      const node = i % 2 === 0 ? nodeA : nodeB;
      const res = await apiClient(node.url).post('/v1/auth/signin', { email: `nobody-${i}@example.com`, password: 'wrong-password-1' });
      statuses.push(res.status);
    }
    // Each node alone would allow AUTH_PER_IP attempts; together they allow AUTH_PER_IP.
    expect(statuses.slice(0, AUTH_PER_IP).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(AUTH_PER_IP)).toEqual([429, 429]);
  });

  it.skipIf(!redisAvailable)("spends one account's ingest budget on both nodes together", async () => {
    // The auth budget of 127.0.0.1 is spent above: this account is made before, through the database of both.
    const account = await signUpBypassingLimit();
    const spent = () => redis.get(`spyglass:rl:ingest-account-items:${account.id}`).then(Number);
    const onA = await connectDevice(nodeA.url, account.apiKey);
    const onB = await connectDevice(nodeB.url, account.apiKey);
    const five = () => Array.from({ length: 5 }, (_, i) => items.log(`item ${i}`));
    // Node A spends the whole window (20 items) on its own.
    for (let i = 0; i < 4; i++) await onA.sendItems(five());
    await expect.poll(spent).toBe(20);
    // Node B has its own full bucket of 20, but the shared counter is spent: it refuses within a
    // frame (the time its first charge takes to come back from Redis), not after 20 more items.
    let acceptedOnB = 0;
    let refused: Error | null = null;
    for (let i = 0; i < 4 && !refused; i++) {
      try {
        await onB.sendItems(five());
        acceptedOnB += 5;
        // The node charges the shared counter a few milliseconds after the frame.
        await expect.poll(spent).toBe(20 + acceptedOnB);
      } catch (err) {
        refused = err as Error;
      }
    }
    expect(refused?.message).toMatch(/Too many items/);
    expect(acceptedOnB).toBeLessThanOrEqual(5);
    await onA.close();
    await onB.close();
  });

  it.skipIf(!redisAvailable)("counts an account's devices on both nodes against one limit, however their hellos interleave", async () => {
    const account = await signUpBypassingLimit();
    const hellos = await Promise.allSettled(Array.from({ length: DEVICE_LIMIT + 3 }, (_, i) => connectDevice(i % 2 === 0 ? nodeA.url : nodeB.url, account.apiKey)));
    const connected = hellos.flatMap((h) => (h.status === 'fulfilled' ? [h.value] : []));
    expect(connected).toHaveLength(DEVICE_LIMIT);
    for (const h of hellos) if (h.status === 'rejected') expect(String(h.reason)).toMatch(/device_limit/);
    for (const device of connected) await device.close();
  });

  /** Accounts for this test come from a third, unlimited node on the same database. */
  async function signUpBypassingLimit(): Promise<{ apiKey: string; id: string }> {
    const helper = await startTestServer(nodes!.sameDatabase);
    try {
      const { profile } = await signUp(helper.url);
      return { apiKey: profile.apiKey, id: profile.id };
    } finally {
      await helper.app.close();
    }
  }
});
