import type { FastifyBaseLogger } from 'fastify';
import { InProcessBus, type LiveBus } from './bus';
import { RedisBus } from './bus-redis';

const CONNECT_TIMEOUT_MS = 10_000;

/** In-process unless a Redis URL is configured: several nodes then share one bus through Redis pub/sub. */
export async function createLiveBus(redisUrl: string | null, log: FastifyBaseLogger): Promise<LiveBus> {
  if (!redisUrl) return new InProcessBus(log);
  const bus = new RedisBus(redisUrl, log);
  let timer: NodeJS.Timeout | undefined;
  try {
    // ioredis retries forever; a node that cannot reach Redis at start-up must not look healthy.
    await Promise.race([
      bus.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    await bus.close();
    throw new Error(`The live bus could not reach Redis at REDIS_URL: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  return bus;
}
