import type { CompactItem, ViewerOutbound } from '@spyglass/protocol';
import type { ListStore } from './list-store';

/** Runs a callback at the next chance to update the screen; answers a function that cancels it. */
export type FrameRequest = (callback: () => void) => () => void;

/**
 * The next animation frame, or a timer when frames do not come (a hidden tab gets none, and the
 * buffer must not grow without bound meanwhile).
 */
export const nextFrame: FrameRequest = (callback) => {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    callback();
  };
  const frame = requestAnimationFrame(run);
  const timer = setTimeout(run, 250);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

export interface LiveFeedEvents {
  /** Items that were not held before, as they land (for the new-row animation). */
  onNewItems?: (ids: string[]) => void;
  onDeleted?: (ids: readonly string[]) => void;
  onCleared?: () => void;
  /** The server dropped this viewer's backlog: the list must be loaded again from the API. */
  onResync?: () => void;
}

type ItemMessage = Extract<ViewerOutbound, { type: 'new_request' | 'new_requests' | 'requests_deleted' | 'requests_cleared' | 'resync' }>;

function isItemMessage(message: ViewerOutbound, deviceId: string): message is ItemMessage {
  switch (message.type) {
    case 'new_request':
    case 'new_requests':
    case 'requests_deleted':
    case 'requests_cleared':
      return message.deviceId === deviceId;
    case 'resync':
      return message.deviceId === null || message.deviceId === deviceId;
    default:
      return false;
  }
}

/**
 * Live item messages of one device, buffered and applied to the store once per animation frame
 * in one batch, so that a burst of a thousand items costs one render, not a thousand.
 */
export class LiveFeed {
  private queue: ItemMessage[] = [];
  private cancelFlush: (() => void) | null = null;
  private disposed = false;

  constructor(
    private readonly store: ListStore,
    private readonly deviceId: string,
    private readonly events: LiveFeedEvents = {},
    private readonly requestFrame: FrameRequest = nextFrame,
  ) {}

  /** Takes any viewer message; those not about this device's items are ignored. */
  push(message: ViewerOutbound): void {
    if (this.disposed || !isItemMessage(message, this.deviceId)) return;
    if (message.type === 'requests_cleared' || message.type === 'resync') this.queue = [];
    this.queue.push(message);
    this.cancelFlush ??= this.requestFrame(() => this.flush());
  }

  /** Applies everything buffered, in arrival order. */
  flush(): void {
    this.cancelFlush?.();
    this.cancelFlush = null;
    const messages = this.queue;
    this.queue = [];
    if (messages.length === 0) return;
    let upserts: CompactItem[] = [];
    let resync = false;
    let cleared = false;
    const deleted: string[] = [];
    const fresh = new Set<string>();
    const applyUpserts = () => {
      if (upserts.length === 0) return;
      for (const item of upserts) if (!this.store.get(item.id)) fresh.add(item.id);
      this.store.upsertMany(upserts);
      upserts = [];
    };
    this.store.batch(() => {
      for (const message of messages) {
        switch (message.type) {
          case 'new_request':
            upserts.push(message.request);
            break;
          case 'new_requests':
            // One committed batch (the server sends these to viewers that subscribe with batches).
            for (const item of message.requests) upserts.push(item);
            break;
          case 'requests_deleted':
            applyUpserts();
            this.store.deleteIds(message.ids);
            deleted.push(...message.ids);
            break;
          case 'requests_cleared':
          case 'resync':
            // push() dropped everything queued before these, so nothing is pending here.
            this.store.clear();
            if (message.type === 'resync') resync = true;
            else cleared = true;
            break;
        }
      }
      applyUpserts();
    });
    if (cleared) this.events.onCleared?.();
    if (resync) this.events.onResync?.();
    if (deleted.length > 0) this.events.onDeleted?.(deleted);
    if (fresh.size > 0) this.events.onNewItems?.([...fresh]);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelFlush?.();
    this.cancelFlush = null;
    this.queue = [];
  }
}
