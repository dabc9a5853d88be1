/** How long to wait before reconnect attempt `attempt` (0 for the first retry). */
export interface BackoffOptions {
  /** Delay of the first retry. */
  initialDelayMs: number;
  /** Upper bound of the exponential part. */
  maxDelayMs: number;
  /** Growth per attempt. */
  factor: number;
  /**
   * Share of the delay that is random (0 to 1). Spreading retries keeps a fleet of devices that
   * lost the same server from reconnecting in lockstep when it comes back.
   */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 500, maxDelayMs: 30_000, factor: 2, jitter: 0.5 };

export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exponential = options.initialDelayMs * options.factor ** Math.max(0, attempt);
  const base = Math.min(options.maxDelayMs, exponential);
  const jitter = Math.min(1, Math.max(0, options.jitter));
  return Math.round(base * (1 - jitter) + base * jitter * random());
}
