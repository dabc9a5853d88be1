import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TokenBucket } from './token-bucket';

/** What the ingest asks of a budget, synchronously, on every frame (TokenBucket's own API). */
export interface Budget {
  has(cost: number, now: number): boolean;
  take(cost: number, now: number): void;
  waitMs(cost: number, now: number): number;
}

/** Charges are sent to the shared counter at most this often, summed. */
const FLUSH_MS = 20;

/**
 * A budget that every server node spends together (through rate-limiter-flexible's Redis store),
 * without a round trip per frame: this node decides at once with its own token bucket and sends
 * what it took to the shared counter a few milliseconds later. When the shared counter says the
 * budget is spent, every node refuses until its window ends. So several nodes together allow
 * at most one window's worth (plus what each admits during one flush), where separate buckets
 * would allow that much on each node.
 *
 * The shared counter is a fixed window of `burst` points lasting `burst / rate` seconds: the same
 * sustained rate and the same burst as the local bucket.
 */
export class SharedTokenBucket implements Budget {
  private readonly local: TokenBucket;
  private blockedUntil = 0;
  private unsent = 0;
  private flushing: NodeJS.Timeout | null = null;
  /** The caller's clock as of the last charge, so that a refusal is timed on the same clock. */
  private lastNow: number;

  constructor(private readonly counter: RateLimiterAbstract, private readonly key: string, ratePerSecond: number, burst: number, now: number) {
    this.local = new TokenBucket(ratePerSecond, burst, now);
    this.lastNow = now;
  }

  /** The shared counter's options for this rate and burst. */
  static window(ratePerSecond: number, burst: number): { points: number; duration: number } {
    return { points: Math.max(1, Math.round(burst)), duration: Math.max(1, Math.ceil(burst / ratePerSecond)) };
  }

  has(cost: number, now: number): boolean {
    return now >= this.blockedUntil && this.local.has(cost, now);
  }

  take(cost: number, now: number): void {
    this.local.take(cost, now);
    this.lastNow = now;
    this.unsent += cost;
    if (!this.flushing) {
      this.flushing = setTimeout(() => void this.flush(), FLUSH_MS);
      this.flushing.unref();
    }
  }

  waitMs(cost: number, now: number): number {
    return Math.max(this.blockedUntil - now, this.local.waitMs(cost, now));
  }

  private async flush(): Promise<void> {
    this.flushing = null;
    const cost = Math.round(this.unsent);
    this.unsent = 0;
    if (cost <= 0) return;
    try {
      await this.counter.consume(this.key, cost);
    } catch (err) {
      // Spent across the nodes: refuse here too until the shared window ends. Any other error
      // (Redis unreachable) leaves this node's own bucket in charge.
      if (err instanceof RateLimiterRes) this.blockedUntil = this.lastNow + err.msBeforeNext;
    }
  }
}
