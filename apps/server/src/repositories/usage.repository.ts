import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';

export const HOUR_MS = 60 * 60 * 1000;

/**
 * Adds received traffic to the account's hourly counter. Built here, run inside the ingest
 * commit (item-writer.repository), so a counter moves only with the items it counts.
 */
export function addTrafficHours(db: Kysely<Database>, usage: Array<{ userId: string; hour: number; bytes: number; items: number }>) {
  return db.insertInto('traffic_hours')
    .values(usage.map((u) => ({ user_id: u.userId, hour: u.hour, bytes: u.bytes, items: u.items })))
    .onConflict((oc) => oc.columns(['user_id', 'hour']).doUpdateSet({
      bytes: sql`traffic_hours.bytes + excluded.bytes`,
      items: sql`traffic_hours.items + excluded.items`,
    }));
}

export interface UsageHourRow {
  hour: number;
  count: number;
  size: number;
}

/** The account's traffic per hour from `since` (epoch ms) on, oldest first. */
export async function findUsageHours(db: Db, userId: string, since: number): Promise<UsageHourRow[]> {
  const rows = await db.selectFrom('traffic_hours').select(['hour', 'items', 'bytes'])
    .where('user_id', '=', userId).where('hour', '>=', since).orderBy('hour').execute();
  return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.items), size: Number(r.bytes) }));
}

/** Records the 80 % alert of a billing period; false when it was recorded before (by any node). */
export async function claimQuotaAlert(db: Db, userId: string, periodStart: number, now: number): Promise<boolean> {
  const result = await db.insertInto('quota_alerts').values({ user_id: userId, period_start: periodStart, sent_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'period_start']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Claims a scheduled job's run for a period; false when another node (or an earlier run) has it. */
export async function claimJobRun(db: Db, job: string, period: string, now: number): Promise<boolean> {
  const result = await db.insertInto('job_runs').values({ job, period, started_at: now })
    .onConflict((oc) => oc.columns(['job', 'period']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The stored size of an item sent again: what its new version adds to the traffic is the growth. */
export function selectStoredItemSize(db: Kysely<Database>, userId: string, deviceId: string, id: string) {
  return db.selectFrom('items').select('size').where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', '=', id);
}
