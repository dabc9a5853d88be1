import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { findAllDeviceKeys } from '../repositories/devices.repository';
import { deleteExpiredItemsOfDevice } from '../repositories/items.repository';
import { deleteExpiredSessions } from '../repositories/sessions.repository';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per delete: a few milliseconds of work, so an ingest commit never waits long behind one. */
export const RETENTION_BATCH = 500;
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionResult {
  items: number;
  sessions: number;
}

/** Lets the event loop (and the ingest commits queued on the database) run between two batches. */
const yieldToIngest = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Removes live items and sessions created before `cutoff` (epoch ms), with their blobs, in small
 * batches, each its own statement, yielding between them.
 *
 * Items are walked per device in display-number order and the walk of a device stops at the
 * first batch holding no expired item (items.repository's deleteExpiredItemsOfDevice). An item
 * dated in the future by a wrong device clock can hold back older ones behind it until it expires
 * itself.
 */
export async function runRetention(db: Db, blobs: BlobStore, cutoff: number, batch = RETENTION_BATCH): Promise<RetentionResult> {
  const result: RetentionResult = { items: 0, sessions: 0 };
  for (const device of await findAllDeviceKeys(db)) {
    let after: number | null = 0;
    while (after !== null) {
      const page = await deleteExpiredItemsOfDevice(db, blobs, device, cutoff, after, batch);
      result.items += page.deleted;
      after = page.next;
      await yieldToIngest();
    }
  }
  for (;;) {
    const deleted = await deleteExpiredSessions(db, blobs, cutoff, batch, yieldToIngest);
    if (deleted === 0) break;
    result.sessions += deleted;
  }
  return result;
}

export interface RetentionJob {
  /** One pass now (also what the timer runs); resolves when it is done. */
  runOnce(): Promise<RetentionResult>;
  stop(): Promise<void>;
}

/**
 * The periodic job: a pass at start and then every hour, never two at once. The history window is
 * RETENTION_DAYS for every account (self-hosted: everyone is on the free plan; the plans' 7 / 30 /
 * 365 days come with billing). 0 keeps everything.
 */
export function startRetentionJob(options: { db: Db; blobs: BlobStore; days: number; now: () => number; log: FastifyBaseLogger; intervalMs?: number }): RetentionJob {
  let running: Promise<RetentionResult> | null = null;
  const runOnce = (): Promise<RetentionResult> => {
    if (options.days <= 0) return Promise.resolve({ items: 0, sessions: 0 });
    running ??= runRetention(options.db, options.blobs, options.now() - options.days * DAY_MS)
      .then((result) => {
        if (result.items + result.sessions > 0) options.log.info(result, 'retention removed expired items and sessions');
        return result;
      })
      .finally(() => { running = null; });
    return running;
  };
  const tick = () => {
    runOnce().catch((err: unknown) => options.log.error({ err }, 'retention pass failed'));
  };
  const timer = setInterval(tick, options.intervalMs ?? RETENTION_INTERVAL_MS);
  timer.unref();
  tick();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
