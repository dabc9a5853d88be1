import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('allows one second of burst, then refills at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(100, undefined, () => now);
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

  it("allows the server's burst at once, then refills at the rate up to it", () => {
    let now = 0;
    const bucket = new TokenBucket(100, 1000, () => now);
    expect(bucket.capacity).toBe(1000);
    expect(bucket.available()).toBe(1000);
    bucket.take(1000);
    now = 500;
    expect(bucket.available()).toBe(50);
    now = 60_000;
    expect(bucket.available()).toBe(1000);
  });

  it('does not limit without a rate', () => {
    expect(new TokenBucket(0).available()).toBe(Infinity);
    expect(new TokenBucket(0).capacity).toBe(Infinity);
  });
});
