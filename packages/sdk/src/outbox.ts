import { DEVICE_LIMITS } from '@spyglass/protocol/device';

export interface OutboxOptions {
  /**
   * Most serialized characters held, queued and unacknowledged together (a character of JSON is
   * a byte for the ASCII most items are made of); the oldest are dropped above it. The bound is
   * memory, not a count of items: a burst of small logs fits, however many they are.
   */
  maxBytes: number;
  /** At most this many items per batch (and at most what the server's welcome allows). */
  maxBatchItems: number;
  /** A batch closes once it holds this much; a single larger item still travels alone. */
  maxBatchBytes: number;
}

export const DEFAULT_OUTBOX: OutboxOptions = {
  maxBytes: 32 * 1024 * 1024,
  maxBatchItems: DEVICE_LIMITS.maxItemsPerFrame,
  maxBatchBytes: 1024 * 1024,
};

/**
 * Backpressure: on once the outbox holds this share of `maxBytes`, off again below the lower one
 * (two marks, so that an app hovering at one does not get an event per item).
 */
export const BACKPRESSURE_MARKS = { on: 0.5, off: 0.25 } as const;

/** The `backpressure` event and `stats().backpressure`: the app is producing faster than the server takes. */
export interface BackpressureState {
  active: boolean;
  bytes: number;
  maxBytes: number;
}

/** A numbered `items` frame, serialized once and resent as is until the server acknowledges it. */
export interface OutboxBatch {
  seq: number;
  frame: string;
  ids: string[];
  bytes: number;
  /** Sent on the current connection (and waiting for its ack). */
  sent: boolean;
}

interface Entry {
  id: string;
  json: string;
}

/**
 * Queued items, oldest first: an array read from `head` and an index by id (for replacing an
 * item in place). A Map alone would serve both, but taking and dropping from its front leaves
 * holes that every later walk from the front steps over again: draining or overflowing a queue
 * of 100,000 items cost seconds.
 */
class ItemQueue {
  private entries: Entry[] = [];
  private head = 0;
  private readonly byId = new Map<string, Entry>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Entry | undefined {
    return this.byId.get(id);
  }

  push(entry: Entry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
  }

  peek(offset = 0): Entry | undefined {
    return this.entries[this.head + offset];
  }

  /** Removes the `count` oldest entries. */
  shift(count = 1): void {
    for (let i = this.head; i < this.head + count; i++) this.byId.delete(this.entries[i]!.id);
    this.head += count;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

export interface OutboxStats {
  /** Items waiting for a batch. */
  queued: number;
  /** Items sent (or to be resent) and not yet acknowledged. */
  unacknowledged: number;
  /** Items the server acknowledged. */
  acknowledged: number;
  /** Items dropped because the outbox was full (oldest first). */
  dropped: number;
  /** Items of batches the server refused (see the error frame it sent). */
  rejected: number;
  /** Serialized characters held (queued and unacknowledged), against `maxBytes`. */
  bytes: number;
  maxBytes: number;
  /** Whether the outbox is filling up (see the `backpressure` event): slow down, or expect drops. */
  backpressure: boolean;
}

/**
 * Items between capture and the server's acknowledgement. Each item is serialized once when it
 * enters; a queued item captured again (a network request completed by its response) is replaced
 * in place, so only its final form travels. Batches keep their sequence number until acknowledged,
 * which is what lets a reconnect resend them and the server's upsert by id keep them exactly-once.
 */
export class Outbox {
  private readonly queue = new ItemQueue();
  private readonly batches: OutboxBatch[] = [];
  private nextSeq = 1;
  private bytes = 0;
  private unackedItems = 0;
  private acknowledged = 0;
  private dropped = 0;
  private rejected = 0;
  private batchItems: number;
  private batchBytes: number;
  private pressure = false;

  /** `onPressure`: told each time backpressure turns on or off. */
  constructor(private readonly options: OutboxOptions = DEFAULT_OUTBOX, private readonly onPressure: (state: BackpressureState) => void = () => {}) {
    this.batchItems = Math.min(options.maxBatchItems, DEVICE_LIMITS.maxItemsPerFrame);
    this.batchBytes = options.maxBatchBytes;
  }

  /** Queues an item (its JSON); an item with the same id still queued is replaced in place. */
  add(id: string, json: string): void {
    const existing = this.queue.get(id);
    if (existing) {
      this.bytes += json.length - existing.json.length;
      existing.json = json;
    } else {
      this.queue.push({ id, json });
      this.bytes += json.length;
    }
    this.enforceBounds();
  }

  get hasQueued(): boolean {
    return this.queue.size > 0;
  }

  /** Whether a full batch is waiting: under load, batches leave at once instead of after the flush interval. */
  get hasFullBatch(): boolean {
    return this.queue.size >= this.batchItems;
  }

  /** Batches taken and not yet acknowledged, sent or not. */
  get batchCount(): number {
    return this.batches.length;
  }

  /** The oldest batch to (re)send on the current connection, in sequence order. */
  nextUnsent(): OutboxBatch | undefined {
    return this.batches.find((b) => !b.sent);
  }

  /** A new connection: every unacknowledged batch goes again, with the numbers it had. */
  markAllUnsent(): void {
    for (const batch of this.batches) batch.sent = false;
  }

  /**
   * The server did not store batch `seq` for now (rate limit, a failed commit): it and every
   * later batch are numbered anew, after everything sent so far, and sent again in their order.
   * Renumbering keeps them clear of cumulative acks for the old numbers, and resending the later
   * ones too keeps an item's last version last (a request's completion after its start).
   * Answers false when no batch has that number (it was renumbered already).
   */
  requeueFrom(seq: number): boolean {
    const index = this.batches.findIndex((b) => b.seq === seq);
    if (index < 0) return false;
    for (const batch of this.batches.slice(index)) {
      const prefix = `{"type":"items","seq":${batch.seq}`.length;
      batch.seq = this.nextSeq++;
      batch.frame = `{"type":"items","seq":${batch.seq}${batch.frame.slice(prefix)}`;
      batch.sent = false;
    }
    return true;
  }

  get isEmpty(): boolean {
    return this.queue.size === 0 && this.batches.length === 0;
  }

  /** Narrows batches to what the server accepts (its welcome says); answers the items a batch may hold. */
  limitBatches(maxItems: number, maxBytes: number): number {
    this.batchItems = Math.max(1, Math.min(this.options.maxBatchItems, maxItems));
    // Room for the frame's own envelope.
    this.batchBytes = Math.max(1, Math.min(this.options.maxBatchBytes, maxBytes - 1024));
    return this.batchItems;
  }

  /** Moves the oldest queued items (at most `limit`) into a new numbered batch. */
  takeBatch(limit = Infinity): OutboxBatch | undefined {
    if (this.queue.size === 0 || limit < 1) return undefined;
    const maxItems = Math.min(this.batchItems, limit);
    const ids: string[] = [];
    const parts: string[] = [];
    let bytes = 0;
    for (let entry = this.queue.peek(); entry; entry = this.queue.peek(ids.length)) {
      if (ids.length >= maxItems) break;
      if (ids.length > 0 && bytes + entry.json.length > this.batchBytes) break;
      ids.push(entry.id);
      parts.push(entry.json);
      bytes += entry.json.length;
    }
    this.queue.shift(ids.length);
    const seq = this.nextSeq++;
    const batch: OutboxBatch = { seq, ids, bytes, sent: false, frame: `{"type":"items","seq":${seq},"items":[${parts.join(',')}]}` };
    this.batches.push(batch);
    this.unackedItems += ids.length;
    return batch;
  }

  /** The server committed every batch up to `seq`. Answers how many items that settled. */
  ack(seq: number): number {
    let settled = 0;
    while (this.batches.length > 0 && this.batches[0]!.seq <= seq) settled += this.remove(this.batches.shift()!);
    this.acknowledged += settled;
    this.notePressure();
    return settled;
  }

  /** The server refused batch `seq` for good (bad items): resending would not help. */
  reject(seq: number): OutboxBatch | undefined {
    const index = this.batches.findIndex((b) => b.seq === seq);
    if (index < 0) return undefined;
    const [batch] = this.batches.splice(index, 1);
    this.rejected += this.remove(batch!);
    this.notePressure();
    return batch;
  }

  stats(): OutboxStats {
    return {
      queued: this.queue.size,
      unacknowledged: this.unackedItems,
      acknowledged: this.acknowledged,
      dropped: this.dropped,
      rejected: this.rejected,
      bytes: this.bytes,
      maxBytes: this.options.maxBytes,
      backpressure: this.pressure,
    };
  }

  private remove(batch: OutboxBatch): number {
    this.bytes -= batch.bytes;
    this.unackedItems -= batch.ids.length;
    return batch.ids.length;
  }

  /** Unacknowledged batches are older than anything queued, so they go first. */
  private enforceBounds(): void {
    const { maxBytes } = this.options;
    while (this.bytes > maxBytes) {
      const batch = this.batches.shift();
      if (batch) {
        this.dropped += this.remove(batch);
        continue;
      }
      const oldest = this.queue.peek();
      // The item just added is never dropped by itself: an oversized one still gets its chance.
      if (!oldest || this.queue.size === 1) break;
      this.queue.shift();
      this.bytes -= oldest.json.length;
      this.dropped++;
    }
    this.notePressure();
  }

  private notePressure(): void {
    const share = this.bytes / this.options.maxBytes;
    const active = this.pressure ? share > BACKPRESSURE_MARKS.off : share >= BACKPRESSURE_MARKS.on;
    if (active === this.pressure) return;
    this.pressure = active;
    this.onPressure({ active, bytes: this.bytes, maxBytes: this.options.maxBytes });
  }
}
