import { z } from 'zod';
import type { DeviceErrorCode } from '@spyglass/protocol';
import type { IngestLimits } from '../ingest/ingest-limits';
import { TokenBucket } from '../lib/token-bucket';
import type { AccountBudgets } from '../ingest/account-budgets';

/** A frame refused before it costs anything more: the error frame the device gets. */
export interface Rejection {
  code: DeviceErrorCode;
  message: string;
  seq?: number;
  retryAfterMs?: number;
}

/** The account-wide budgets, shared by all devices of one account (on every node with Redis). */
export type AccountBuckets = AccountBudgets;

const SeqPeek = z.object({ seq: z.number().int().nonnegative() });

/** The seq of a frame too large to parse, when the SDK put it near the start (docs/protocol.md). */
export function peekSeq(data: Buffer): number | undefined {
  const match = /"seq"\s*:\s*(\d{1,15})/.exec(data.subarray(0, 256).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/** The seq of a parsed frame that failed validation, if it has a usable one. */
export function seqOf(json: unknown): number | undefined {
  const seq = SeqPeek.safeParse(json);
  return seq.success ? seq.data.seq : undefined;
}

const withSeq = (seq: number | undefined) => (seq === undefined ? {} : { seq });

/**
 * What one device connection may send: frame sizes, byte and item rates (its own and its
 * account's), items waiting for their commit, and increasing sequence numbers. Each check
 * answers null when the frame may go on, or the error to send; the budgets are charged only when
 * the frame is admitted.
 */
export class FrameAdmission {
  private readonly items: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly refusals: TokenBucket;
  private lastSeq = -1;
  private inFlightItems = 0;
  private backlogBytes = 0;

  constructor(private readonly limits: IngestLimits, private readonly account: () => AccountBuckets, now: number) {
    this.items = new TokenBucket(limits.deviceItemsPerSecond, limits.deviceItemsBurst, now);
    this.bytes = new TokenBucket(limits.deviceBytesPerSecond, limits.deviceBytesBurst, now);
    this.refusals = new TokenBucket(limits.refusalsPerSecond, limits.refusalsBurst, now);
  }

  /**
   * Counts a refused frame; false once the device has been refused more than its budget allows.
   * Rate refusals do not count: a device that slows down as told is not misbehaving.
   */
  countRefusal(code: DeviceErrorCode, now: number): boolean {
    if (code === 'rate_limited') return true;
    if (!this.refusals.has(1, now)) return false;
    this.refusals.take(1, now);
    return true;
  }

  /** Frames larger than the limit are answered without being parsed. */
  checkSize(data: Buffer): Rejection | null {
    const { maxFrameBytes } = this.limits;
    if (data.length <= maxFrameBytes) return null;
    return { code: 'frame_too_large', message: `Frames may hold at most ${maxFrameBytes} bytes`, ...withSeq(peekSeq(data)) };
  }

  /** Large frames wait to be parsed off the event loop; a device may have a few of them queued, not more. */
  enterBacklog(data: Buffer): Rejection | null {
    if (this.backlogBytes + data.length > 4 * this.limits.maxFrameBytes) {
      return {
        code: 'rate_limited', message: 'Too many large frames at once: wait for acks before sending more',
        retryAfterMs: 500, ...withSeq(peekSeq(data)),
      };
    }
    this.backlogBytes += data.length;
    return null;
  }

  leaveBacklog(bytes: number): void {
    this.backlogBytes -= bytes;
  }

  clearBacklog(): void {
    this.backlogBytes = 0;
  }

  /**
   * Every frame is charged before it is parsed, so that a flood costs no parsing. `seq` is the
   * frame's, read without parsing it, for the error the device gets.
   */
  admitBytes(bytes: number, seq: number | undefined, now: number): Rejection | null {
    const account = this.account().bytes;
    if (this.bytes.has(bytes, now) && account.has(bytes, now)) {
      this.bytes.take(bytes, now);
      account.take(bytes, now);
      return null;
    }
    return {
      code: 'rate_limited', message: 'Too much data: slow down and send this frame again later',
      retryAfterMs: Math.max(this.bytes.waitMs(bytes, now), account.waitMs(bytes, now)), ...withSeq(seq),
    };
  }

  /** An items frame: its sequence, its size, the item rates and what already waits for a commit. */
  admitItems(seq: number, count: number, now: number): Rejection | null {
    if (seq <= this.lastSeq) return { code: 'bad_sequence', message: `seq must increase within a connection: got ${seq} after ${this.lastSeq}`, seq };
    if (count > this.limits.maxItemsPerFrame) return { code: 'bad_items', message: `A frame may hold at most ${this.limits.maxItemsPerFrame} items`, seq };
    const account = this.account().items;
    if (!this.items.has(count, now) || !account.has(count, now)) {
      const retryAfterMs = Math.max(this.items.waitMs(count, now), account.waitMs(count, now));
      return { code: 'rate_limited', message: 'Too many items: slow down and send this frame again later', seq, retryAfterMs };
    }
    if (this.inFlightItems + count > this.limits.maxInFlightItems) {
      return { code: 'rate_limited', message: 'Too many items waiting to be stored: wait for acks before sending more', seq, retryAfterMs: 500 };
    }
    this.items.take(count, now);
    account.take(count, now);
    this.lastSeq = seq;
    this.inFlightItems += count;
    return null;
  }

  /** Admitted items were committed or failed: they no longer wait. */
  settled(count: number): void {
    this.inFlightItems -= count;
  }
}
