import type { FastifyBaseLogger } from 'fastify';
import type { DeviceItem } from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import type { IngestFailure, IngestQueue } from '../ingest/ingest-queue';
import { prepareRows } from '../ingest/item-rows';
import type { LiveEvents } from '../live/live-events';

export interface ItemIntakeDeps {
  blobs: BlobStore;
  queue: IngestQueue;
  events: LiveEvents;
  log: FastifyBaseLogger;
}

/**
 * The items of one device connection on their way to the ingest queue: rows prepared (large
 * bodies and screenshots written to the blob store first), and queued in the order their frames
 * arrived even when a later frame's blobs are written sooner, so that the device's acks stay
 * cumulative. `done` reports each frame's commit, once.
 */
export class ItemIntake {
  /** The previous frame's blob writes. */
  private tail: Promise<void> | null = null;

  constructor(private readonly deps: ItemIntakeDeps, private readonly userId: string, private readonly deviceId: string) {}

  /**
   * Answers why the items could not even be prepared (nothing was queued, `done` is not called):
   * `too_deep` for values nested beyond what can be serialized, which sending again cannot fix.
   */
  take(items: DeviceItem[], receivedAt: number, done: (failure: IngestFailure | null) => void): 'too_deep' | 'internal' | null {
    const { userId, deviceId } = this;
    let prepared: ReturnType<typeof prepareRows>;
    try {
      prepared = prepareRows(items, {
        userId, deviceId, blobs: this.deps.blobs, receivedAt, keepParsed: this.deps.events.wantsItems(userId, deviceId),
      });
    } catch (err) {
      if (err instanceof RangeError) return 'too_deep';
      this.deps.log.error({ err }, 'preparing device items failed');
      return 'internal';
    }
    const enqueue = () => this.deps.queue.enqueue({ userId, deviceId, rows: prepared.rows, done });
    if (!prepared.blobsWritten && !this.tail) {
      enqueue();
      return null;
    }
    const tail: Promise<void> = Promise.all([this.tail, prepared.blobsWritten]).then(enqueue, (err: unknown) => {
      this.deps.log.error({ err }, 'blob write failed');
      done('internal');
    });
    this.tail = tail;
    void tail.finally(() => {
      if (this.tail === tail) this.tail = null;
    });
    return null;
  }
}
