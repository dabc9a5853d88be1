import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Like the PostgreSQL suite: without a reachable Redis the scale-out tests are skipped with a
 * loud message locally, and fail the run under CI=true.
 */
export async function probeRedis(url = REDIS_URL): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (err) {
    const message = `Redis is unreachable at ${url} (${(err as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${message}: the scale-out suite is required under CI=true`, { cause: err });
    console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING the Redis scale-out suite: ${message}\n!! Set TEST_REDIS_URL to run it.\n${'!'.repeat(78)}\n`);
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis URL on a database of its own (rate-limit counters are keys; pub/sub ignores the
 * database), emptied of the counters so that a run starts from zero.
 */
export async function isolatedRedisUrl(db: number): Promise<string> {
  const url = new URL(REDIS_URL);
  url.pathname = `/${db}`;
  const client = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    const keys = await client.keys('spyglass:rl:*');
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
  return url.toString();
}
