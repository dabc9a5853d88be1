import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';

describe('backoffDelay', () => {
  const noJitter = { ...DEFAULT_BACKOFF, jitter: 0 };

  it('doubles per attempt from the initial delay', () => {
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, noJitter))).toEqual([500, 1000, 2000, 4000]);
  });

  it('is capped at the maximum', () => {
    expect(backoffDelay(20, noJitter)).toBe(30_000);
    expect(backoffDelay(1000, noJitter)).toBe(30_000);
  });

  it('spreads the delay over the jitter share', () => {
    const options = { ...DEFAULT_BACKOFF, jitter: 0.5 };
    expect(backoffDelay(2, options, () => 0)).toBe(1000);
    expect(backoffDelay(2, options, () => 0.999999)).toBe(2000);
    expect(backoffDelay(2, options, () => 0.5)).toBe(1500);
  });

  it('keeps every jittered delay within its band', () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const top = Math.min(30_000, 500 * 2 ** attempt);
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(attempt);
        expect(d).toBeGreaterThanOrEqual(top / 2);
        expect(d).toBeLessThanOrEqual(top);
      }
    }
  });
});
