import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimiterOptions {
  /** Names the counter family; keys of different families never meet. */
  keyPrefix: string;
  points: number;
  /** Window in seconds. */
  duration: number;
}

/**
 * Where rate-limit counters live: this process's memory (one node), or Redis, so that every node
 * counts against the same numbers and a client spreading its attempts over the nodes of a load
 * balancer is limited as one client.
 */
export interface LimiterStore {
  /** Whether the counters are shared by every node. */
  readonly shared: boolean;
  limiter(options: LimiterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

const KEY_PREFIX = 'spyglass:rl:';

export const memoryLimiterStore: LimiterStore = {
  shared: false,
  limiter: (options) => new RateLimiterMemory(options),
  close: async () => {},
};

/**
 * rate-limiter-flexible's Redis store on a connection of its own. While Redis is unreachable
 * each limiter falls back to a counter in this process's memory (its insurance limiter), so
 * limits still hold per node rather than failing every request.
 */
export function redisLimiterStore(url: string, log: FastifyBaseLogger): LimiterStore {
  // No offline queue: a call while Redis is away fails at once and the insurance limiter answers.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastWarning = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastWarning < 10_000) return;
    lastWarning = now;
    // The URL may carry a password: the message only.
    log.warn({ message: err.message }, 'rate limits: Redis unreachable; counting per node meanwhile');
  });
  return {
    shared: true,
    limiter: (options) => new RateLimiterRedis({
      ...options, keyPrefix: KEY_PREFIX + options.keyPrefix, storeClient: client, insuranceLimiter: new RateLimiterMemory(options),
    }),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Shared through Redis when a URL is configured, else in memory. */
export function createLimiterStore(redisUrl: string | null, log: FastifyBaseLogger): LimiterStore {
  return redisUrl ? redisLimiterStore(redisUrl, log) : memoryLimiterStore;
}
