import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { SharedTokenBucket } from './shared-token-bucket';

/** Two nodes' budgets of one account on one counter (Redis in production, memory here). */
function twoNodes(rate: number, burst: number) {
  const counter = new RateLimiterMemory({ keyPrefix: 'test', ...SharedTokenBucket.window(rate, burst) });
  const now = Date.now();
  return { now, a: new SharedTokenBucket(counter, 'acct', rate, burst, now), b: new SharedTokenBucket(counter, 'acct', rate, burst, now) };
}

/** Charges reach the counter a few milliseconds after they are taken. */
const charged = () => new Promise((resolve) => setTimeout(resolve, 40));

describe('SharedTokenBucket', () => {
  it('a window of `burst` points lasting burst / rate seconds', () => {
    expect(SharedTokenBucket.window(50_000, 200_000)).toEqual({ points: 200_000, duration: 4 });
    expect(SharedTokenBucket.window(10, 5)).toEqual({ points: 5, duration: 1 });
  });

  it('decides at once from its own bucket, like a token bucket', () => {
    const { now, a } = twoNodes(10, 20);
    expect(a.has(20, now)).toBe(true);
    a.take(20, now);
    expect(a.has(1, now)).toBe(false);
    expect(a.waitMs(1, now)).toBe(100);
  });

  it('refuses on one node once another spent the shared budget, until the window ends', async () => {
    const { now, a, b } = twoNodes(10, 20);
    a.take(20, now);
    await charged();
    // Node b's own bucket is full, but the shared counter is spent: it learns so with its next charge.
    expect(b.has(5, now)).toBe(true);
    b.take(5, now);
    await charged();
    expect(b.has(1, now)).toBe(false);
    expect(b.waitMs(1, now)).toBeGreaterThan(1000);
    expect(b.has(1, now + 2_100)).toBe(true);
  });

  it("keeps its own limit when the counter cannot be reached", async () => {
    const failing = { consume: () => Promise.reject(new Error('Redis unreachable')) } as unknown as RateLimiterMemory;
    const now = Date.now();
    const bucket = new SharedTokenBucket(failing, 'acct', 10, 20, now);
    bucket.take(10, now);
    await charged();
    expect(bucket.has(10, now)).toBe(true);
    expect(bucket.has(11, now)).toBe(false);
  });
});
