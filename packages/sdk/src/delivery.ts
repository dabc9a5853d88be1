import type { ErrorFrame, WelcomeFrame } from '@spyglass/protocol';
import type { SpyglassError } from './errors';
import { Outbox, type BackpressureState, type OutboxOptions, type OutboxStats } from './outbox';
import { TokenBucket } from './token-bucket';

/** The part of the connection delivery uses. */
export interface FrameLink {
  readonly isReady: boolean;
  send(frame: string): boolean;
}

export interface DeliveryOptions {
  outbox: OutboxOptions;
  /** Batches sent and not yet acknowledged before waiting for acks (fewer if the server takes fewer items in flight). */
  maxInFlight: number;
  /** How long captured items may wait to share a batch. */
  flushIntervalMs: number;
  /** Told when the outbox starts and stops filling up faster than the server takes it. */
  onBackpressure(state: BackpressureState): void;
}

/**
 * Items from capture to acknowledgement (docs/sdk.md, "Delivery: exactly once"): the outbox, the
 * send pump within the in-flight window and the server's item rate, pauses the server asks for,
 * and `flush()` waiters. Batches are pipelined: several travel before the first is acknowledged,
 * as many as the server's welcome says it takes in flight; a full batch leaves at once, a partial
 * one after the flush interval, so batches grow with the load.
 */
export class Delivery {
  private readonly outbox: Outbox;
  private rate: TokenBucket | undefined;
  /** The server asked for a pause (rate limit): nothing is sent before. */
  private resumeAt = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private failure: SpyglassError | undefined;
  /** The server's last word on a batch was quota_exceeded; an ack clears it. */
  private quotaExceeded = false;
  /** Batches in flight at most: the option, narrowed by what the server takes. */
  private window: number;

  constructor(private readonly link: FrameLink, private readonly options: DeliveryOptions) {
    this.outbox = new Outbox(options.outbox, options.onBackpressure);
    this.window = options.maxInFlight;
  }

  /** Queues a serialized item; an item still queued with the same id is replaced in place. */
  add(id: string, json: string): void {
    this.outbox.add(id, json);
    if (this.outbox.hasFullBatch && this.outbox.batchCount < this.window) this.pump(true);
    else this.scheduleFlush();
  }

  /** A new session: batch limits and rate of this server, then everything unacknowledged again, in order. */
  welcomed(limits: WelcomeFrame['limits']): void {
    const batchItems = this.outbox.limitBatches(limits.maxItemsPerFrame, limits.maxFrameBytes);
    const serverWindow = limits.maxInFlightItems ? Math.floor(limits.maxInFlightItems / batchItems) : Infinity;
    this.window = Math.max(1, Math.min(this.options.maxInFlight, serverWindow));
    this.rate = new TokenBucket(limits.itemsPerSecond, limits.itemsBurst);
    this.resumeAt = 0;
    this.outbox.markAllUnsent();
    this.pump(true);
  }

  acked(seq: number): void {
    this.quotaExceeded = false;
    this.outbox.ack(seq);
    this.settle();
    // A full batch goes into the freed slot at once; a partial one still waits for the flush timer.
    this.pump(this.outbox.hasFullBatch);
  }

  /** A refusal that names a batch (the error itself is reported by the client). */
  refused(frame: ErrorFrame & { seq: number }): void {
    if (frame.code === 'quota_exceeded') this.quotaExceeded = true;
    if (frame.code === 'bad_items' || frame.code === 'frame_too_large' || frame.code === 'bad_frame') {
      // Refused for its content: it would be refused again.
      this.outbox.reject(frame.seq);
      this.settle();
      this.pump();
    } else if (this.outbox.requeueFrom(frame.seq)) {
      // Refused for now (rate, a failed commit, a numbering mix-up): wait as asked, then again.
      this.resumeAt = Date.now() + (frame.retryAfterMs ?? 1000);
      this.pumpLater(this.resumeAt - Date.now());
    }
  }

  /** Resolves once everything queued so far is acknowledged; rejects once delivery has ended. */
  flush(): Promise<void> {
    this.pump(true);
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.settle();
    });
  }

  /** Nothing more will be delivered: waiters get `error`. */
  end(error: SpyglassError): void {
    clearTimeout(this.flushTimer);
    this.failure ??= error;
    this.settle();
  }

  stats(): OutboxStats & { quotaExceeded: boolean } {
    return { ...this.outbox.stats(), quotaExceeded: this.quotaExceeded };
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined || !this.outbox.hasQueued) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.pump(true);
    }, this.options.flushIntervalMs);
  }

  private pumpLater(delayMs: number): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.pump(true);
    }, Math.max(1, delayMs));
  }

  /**
   * Sends batches due again first, then new ones while the in-flight window has room, within the
   * server's item rate and after any pause it asked for.
   */
  private pump(force = false): void {
    if (!force && this.flushTimer !== undefined) return;
    while (this.link.isReady) {
      const wait = this.resumeAt - Date.now();
      if (wait > 0) return this.pumpLater(wait);
      const allowed = this.rate?.available() ?? Infinity;
      let batch = this.outbox.nextUnsent();
      if (batch) {
        const needed = Math.min(batch.ids.length, this.rate?.capacity ?? 0);
        if (allowed < needed) return this.pumpLater(this.rate!.msUntil(needed));
      } else {
        if (!this.outbox.hasQueued || this.outbox.batchCount >= this.window) return;
        if (allowed < 1) return this.pumpLater(this.rate!.msUntil(1));
        batch = this.outbox.takeBatch(allowed)!;
      }
      this.rate?.take(batch.ids.length);
      batch.sent = true;
      this.link.send(batch.frame);
    }
  }

  private settle(): void {
    if (this.waiters.length === 0) return;
    if (this.failure) {
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
    } else if (this.outbox.isEmpty) {
      for (const waiter of this.waiters.splice(0)) waiter.resolve();
    }
  }
}
