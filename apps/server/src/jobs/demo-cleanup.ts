import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { deleteUser } from '../repositories/users.repository';
import { findDemoUsersCreatedBefore } from '../repositories/sample-device.repository';
import { startPeriodicJob, type PeriodicJob } from './periodic-job';

const HOUR_MS = 60 * 60 * 1000;
export const DEMO_CLEANUP_INTERVAL_MS = 10 * 60 * 1000;
/** Accounts per query: a pass over many expired demo accounts is many small steps. */
const BATCH = 100;

/**
 * Deletes demo accounts older than `ttlHours` with everything they own (rows cascade from the
 * account; blobs go by the account's key prefix). Answers how many went.
 */
export async function removeExpiredDemoUsers(db: Db, blobs: BlobStore, ttlHours: number, now: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = await findDemoUsersCreatedBefore(db, now - ttlHours * HOUR_MS, BATCH);
    for (const id of ids) {
      await deleteUser(db, id);
      await blobs.deleteUser(id);
    }
    removed += ids.length;
    if (ids.length < BATCH) return removed;
  }
}

/** On demo servers (DEMO_MODE=1): a pass at start and then every 10 minutes, never two at once. */
export function startDemoCleanupJob(options: { db: Db; blobs: BlobStore; ttlHours: number; now: () => number; log: FastifyBaseLogger }): PeriodicJob<number> {
  return startPeriodicJob({
    name: 'demo cleanup',
    intervalMs: DEMO_CLEANUP_INTERVAL_MS,
    runAtStart: true,
    log: options.log,
    async run() {
      const removed = await removeExpiredDemoUsers(options.db, options.blobs, options.ttlHours, options.now());
      if (removed > 0) options.log.info({ removed }, 'removed expired demo accounts');
      return removed;
    },
  });
}
