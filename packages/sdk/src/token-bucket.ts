/** Items the server's per-device rate allows now: `perSecond` refill, `burst` at once (one second's worth unless told). */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly burst: number;

  constructor(readonly perSecond: number, burst: number | undefined = undefined, private readonly now: () => number = Date.now) {
    this.burst = burst !== undefined && burst >= perSecond ? burst : perSecond;
    this.tokens = this.burst;
    this.last = now();
  }

  available(): number {
    if (!(this.perSecond > 0) || !Number.isFinite(this.perSecond)) return Infinity;
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    return Math.floor(this.tokens);
  }

  take(count: number): void {
    this.tokens -= count;
  }

  /** The most that can ever be available at once. */
  get capacity(): number {
    return this.perSecond > 0 && Number.isFinite(this.perSecond) ? this.burst : Infinity;
  }

  msUntil(count: number): number {
    return Math.max(1, Math.ceil(((count - this.tokens) / this.perSecond) * 1000));
  }
}
