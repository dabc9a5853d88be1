import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { findAllDeviceKeys } from '../repositories/devices.repository';
import { deleteExpiredItemsOfDevice } from '../repositories/items.repository';
import { deleteExpiredSessions, deleteSessionWithBlobs, findSessionsPage } from '../repositories/sessions.repository';
import { findUserById } from '../repositories/users.repository';
import type { BillingService } from '../services/billing.service';
import { startPeriodicJob, type PeriodicJob } from './periodic-job';
import { rowsById } from './rows-by-id';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per delete: a few milliseconds of work, so an ingest commit never waits long behind one. */
export const RETENTION_BATCH = 500;
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionResult {
  items: number;
  sessions: number;
}

/** An account's history cutoff (epoch ms; older goes), or null when the account keeps everything. */
export type CutoffOf = (userId: string) => Promise<number | null>;

/**
 * Spec 001 §9: session history by plan (Team 7, Pro 30, Enterprise 365 days, as the plans file
 * says); free users, the free plan and the trial keep RETENTION_DAYS (0: everything).
 */
export function planCutoffs(db: Db, billing: BillingService, retentionDays: number, now: number): CutoffOf {
  const known = new Map<string, Promise<number | null>>();
  const cutoffOf = async (userId: string): Promise<number | null> => {
    const user = await findUserById(db, userId);
    if (!user) return null;
    let days = retentionDays;
    if (!billing.isFreeUser(user)) {
      const { plan } = await billing.subscription(user, false);
      if (plan !== 'free') days = billing.plan(plan)?.sessionHistoryDays ?? retentionDays;
    }
    return days > 0 ? now - days * DAY_MS : null;
  };
  return (userId) => {
    let cutoff = known.get(userId);
    if (!cutoff) known.set(userId, (cutoff = cutoffOf(userId)));
    return cutoff;
  };
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
export interface RetentionOptions {
  /** Rows per delete. */
  batch?: number;
  /** Told each batch of a device's items removed, so that open pages drop them too. */
  announce?: ItemsRemoved;
}

export type ItemsRemoved = (userId: string, deviceId: string, ids: string[]) => void;

export async function runRetention(db: Db, blobs: BlobStore, cutoff: number | CutoffOf, options: RetentionOptions = {}): Promise<RetentionResult> {
  const batch = options.batch ?? RETENTION_BATCH;
  const announce = options.announce ?? (() => {});
  if (typeof cutoff !== 'number') {
    return { items: await deleteExpiredItems(db, blobs, cutoff, batch, announce), sessions: await deleteExpiredSessionsOfPlans(db, blobs, cutoff, batch) };
  }
  return {
    items: await deleteExpiredItems(db, blobs, () => Promise.resolve(cutoff), batch, announce),
    sessions: await deleteSessionsBefore(db, blobs, cutoff, batch),
  };
}

/** One cutoff for every account: the expired sessions go in batches, without looking at each. */
async function deleteSessionsBefore(db: Db, blobs: BlobStore, cutoff: number, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await deleteExpiredSessions(db, blobs, cutoff, batch, yieldToIngest);
    if (page === 0) return deleted;
    deleted += page;
  }
}

/** Every device's items older than its account's cutoff, device by device; answers how many went. */
async function deleteExpiredItems(db: Db, blobs: BlobStore, cutoffOf: CutoffOf, batch: number, announce: ItemsRemoved): Promise<number> {
  let deleted = 0;
  for (const device of await findAllDeviceKeys(db)) {
    const cutoff = await cutoffOf(device.userId);
    if (cutoff === null) continue;
    let after: number | null = 0;
    while (after !== null) {
      const page = await deleteExpiredItemsOfDevice(db, blobs, device, cutoff, after, batch);
      deleted += page.deleted.length;
      if (page.deleted.length > 0) announce(device.userId, device.deviceId, page.deleted);
      after = page.next;
      await yieldToIngest();
    }
  }
  return deleted;
}

/** Sessions of different plans expire at different ages: every session is looked at, in pages. */
async function deleteExpiredSessionsOfPlans(db: Db, blobs: BlobStore, cutoffOf: CutoffOf, batch: number): Promise<number> {
  let deleted = 0;
  for await (const session of rowsById((after, size) => findSessionsPage(db, after, size), batch)) {
    const cutoff = await cutoffOf(session.user_id);
    if (cutoff === null || Number(session.created_at) >= cutoff) continue;
    await deleteSessionWithBlobs(db, blobs, session.user_id, session.id);
    deleted += 1;
    await yieldToIngest();
  }
  return deleted;
}

/**
 * The periodic job: a pass at start and then every hour, never two at once. Self-hosted the history
 * window is RETENTION_DAYS for every account (0 keeps everything); hosted, each account's plan's.
 */
export function startRetentionJob(options: {
  db: Db; blobs: BlobStore; days: number; now: () => number; log: FastifyBaseLogger; intervalMs?: number;
  /** Hosted billing: each account's plan sets its history (planCutoffs). */
  billing?: BillingService;
  /** Open pages are told which items went (a Save Session of them would otherwise be refused). */
  announce?: ItemsRemoved;
}): PeriodicJob<RetentionResult> {
  return startPeriodicJob({
    name: 'retention pass',
    intervalMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    runAtStart: true,
    log: options.log,
    async run() {
      const { billing } = options;
      if (options.days <= 0 && !billing?.enabled) return { items: 0, sessions: 0 };
      const cutoff = billing?.enabled ? planCutoffs(options.db, billing, options.days, options.now()) : options.now() - options.days * DAY_MS;
      const result = await runRetention(options.db, options.blobs, cutoff, { announce: options.announce });
      if (result.items + result.sessions > 0) options.log.info(result, 'retention removed expired items and sessions');
      return result;
    },
  });
}
