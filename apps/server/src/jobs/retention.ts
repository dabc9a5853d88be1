import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { sessionBlobOwner } from '../repositories/sessions.repository';

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
 * batches, each its own statement.
 *
 * Items are walked per device in display-number order (the existing (device, num) index), so no
 * extra index slows the ingest down: a device's items arrive roughly in creation order, and the
 * walk stops at the first batch holding no expired item. An item dated in the future by a wrong
 * device clock can hold back older ones behind it until it expires itself.
 */
export async function runRetention(db: Db, blobs: BlobStore, cutoff: number, batch = RETENTION_BATCH): Promise<RetentionResult> {
  const result: RetentionResult = { items: 0, sessions: 0 };
  const devices = await db.selectFrom('devices').select(['id', 'user_id']).execute();
  for (const device of devices) {
    let after = 0;
    for (;;) {
      const rows = await db.selectFrom('items').select(['id', 'num', 'created_at', 'request_body_blob', 'response_body_blob', 'image_blob'])
        .where('device_id', '=', device.id).where('num', '>', after).orderBy('num').limit(batch).execute();
      const expired = rows.filter((r) => Number(r.created_at) < cutoff);
      if (expired.length === 0) break;
      await db.deleteFrom('items').where('device_id', '=', device.id).where('id', 'in', expired.map((r) => r.id)).execute();
      await blobs.delete(expired.flatMap((r) => [r.request_body_blob, r.response_body_blob, r.image_blob]).filter((k): k is string => k !== null));
      result.items += expired.length;
      after = Number(rows[rows.length - 1]!.num);
      await yieldToIngest();
      if (rows.length < batch) break;
    }
  }
  for (;;) {
    const sessions = await db.selectFrom('sessions').select(['id', 'user_id']).where('created_at', '<', cutoff).limit(batch).execute();
    if (sessions.length === 0) break;
    // Each session's items go with it (ON DELETE CASCADE); a large session is one longer delete.
    for (const s of sessions) {
      await db.deleteFrom('sessions').where('id', '=', s.id).execute();
      await blobs.deleteDevice(s.user_id, sessionBlobOwner(s.id));
      result.sessions++;
      await yieldToIngest();
    }
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
