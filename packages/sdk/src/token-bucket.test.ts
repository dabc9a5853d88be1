import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('allows one second of burst, then refills at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(100, () => now);
    expect(bucket.available()).toBe(100);
    bucket.take(100);
    expect(bucket.available()).toBe(0);
    expect(bucket.msUntil(1)).toBe(10);
    expect(bucket.msUntil(50)).toBe(500);
    now = 250;
    expect(bucket.available()).toBe(25);
    now = 10_000;
    expect(bucket.available()).toBe(100);
  });

  it('does not limit without a rate', () => {
    expect(new TokenBucket(0).available()).toBe(Infinity);
    expect(new TokenBucket(0).capacity).toBe(Infinity);
  });
});
