/** Items the server's per-device rate allows now: `perSecond` refill, one second of burst. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(readonly perSecond: number, private readonly now: () => number = Date.now) {
    this.tokens = perSecond;
    this.last = now();
  }

  available(): number {
    if (!(this.perSecond > 0) || !Number.isFinite(this.perSecond)) return Infinity;
    const t = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    return Math.floor(this.tokens);
  }

  take(count: number): void {
    this.tokens -= count;
  }

  /** The most that can ever be available at once. */
  get capacity(): number {
    return this.perSecond > 0 && Number.isFinite(this.perSecond) ? this.perSecond : Infinity;
  }

  msUntil(count: number): number {
    return Math.max(1, Math.ceil(((count - this.tokens) / this.perSecond) * 1000));
  }
}
