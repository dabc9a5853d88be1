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

/** A page of accounts in id order, with what the weekly report needs to decide and address them. */
export function findReportAccounts(db: Db, after: string, limit: number) {
  return db.selectFrom('users').select(['id', 'email', 'settings']).where('id', '>', after).orderBy('id').limit(limit).execute();
}

/** The account's requests and bytes metered in [from, to). */
export async function sumUsageBetween(db: Db, userId: string, from: number, to: number): Promise<{ count: number; size: number }> {
  const row = await db.selectFrom('traffic_hours')
    .select((eb) => [eb.fn.sum<number | string | null>('items').as('count'), eb.fn.sum<number | string | null>('bytes').as('size')])
    .where('user_id', '=', userId).where('hour', '>=', from).where('hour', '<', to)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), size: Number(row?.size ?? 0) };
}

/** The account's devices, and those that sent the most items created in [from, to). */
export async function findReportDevices(db: Db, userId: string, from: number, to: number, top: number) {
  const total = await db.selectFrom('devices').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  const busiest = await db.selectFrom('items as i').innerJoin('devices as d', (j) => j.onRef('d.user_id', '=', 'i.user_id').onRef('d.id', '=', 'i.device_id'))
    .select((eb) => ['d.id', 'd.name_override', 'd.info', eb.fn.countAll<number | string>().as('n')])
    .where('i.user_id', '=', userId).where('i.created_at', '>=', from).where('i.created_at', '<', to)
    .groupBy(['d.id', 'd.name_override', 'd.info']).orderBy('n', 'desc').limit(top).execute();
  return { total: Number(total?.n ?? 0), busiest: busiest.map((d) => ({ id: d.id, nameOverride: d.name_override, info: d.info, items: Number(d.n) })) };
}
