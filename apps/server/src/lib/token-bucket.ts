/**
 * A token bucket: `ratePerSecond` tokens refill continuously up to `burst`. Synchronous on
 * purpose: it is consulted for every frame on the ingest hot path, where a promise per check
 * (as rate-limiter-flexible's API has) would cost more than the check.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(private readonly ratePerSecond: number, private readonly burst: number, now: number) {
    this.tokens = burst;
    this.updatedAt = now;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSecond) / 1000);
    this.updatedAt = now;
  }

  /** Whether `cost` tokens are available now (nothing is taken). */
  has(cost: number, now: number): boolean {
    this.refill(now);
    return this.tokens >= Math.min(cost, this.burst);
  }

  take(cost: number, now: number): void {
    this.refill(now);
    this.tokens -= cost;
  }

  /** Milliseconds until `cost` tokens (at most a full bucket) will be available. */
  waitMs(cost: number, now: number): number {
    this.refill(now);
    const missing = Math.min(cost, this.burst) - this.tokens;
    return missing <= 0 ? 0 : Math.ceil((missing * 1000) / this.ratePerSecond);
  }
}
