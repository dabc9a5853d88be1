import type { Kysely, OnConflictBuilder } from 'kysely';
import { sql } from 'kysely';
import type { CapturedItem, CompactItem } from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import {
  ITEM_COLUMNS, COMPACT_COLUMNS, blobKeysOf, bodyFlags, inAskedOrder, toCompactItem, toFullItem, type ItemColumn, type NewItemRow,
} from './item-columns';
import type { DeviceKey } from './devices.repository';

export const MAX_PAGE_LIMIT = 5000;

export interface ItemsPageQuery {
  deviceId: string;
  /** Epoch ms, inclusive bounds on the item's createdAt. */
  startDate?: number;
  endDate?: number;
  /** Cursor: only items with a display number below this one. */
  before?: number;
  limit: number;
}

export interface ItemsPage {
  items: CompactItem[];
  /** The `before` cursor of the next page, or null on the last page. */
  nextBefore: number | null;
}

function selectCompact(db: Kysely<Database>) {
  return db.selectFrom('items').select(COMPACT_COLUMNS).select(bodyFlags);
}

/** One page of a device's items, newest (highest display number) first, without bodies. */
export async function findItemsPage(db: Db, userId: string, query: ItemsPageQuery): Promise<ItemsPage> {
  const limit = Math.max(1, Math.min(MAX_PAGE_LIMIT, Math.floor(query.limit)));
  let q = selectCompact(db).where('user_id', '=', userId).where('device_id', '=', query.deviceId);
  if (query.startDate !== undefined) q = q.where('created_at', '>=', query.startDate);
  if (query.endDate !== undefined) q = q.where('created_at', '<=', query.endDate);
  if (query.before !== undefined) q = q.where('num', '<', query.before);
  const rows = await q.orderBy('num', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit).map((row) => toCompactItem(row));
  const last = page[page.length - 1];
  return { items: page, nextBefore: rows.length > limit && last ? last.num : null };
}

/** How many of a device's items match the page query's dates, those numbered up to `throughNum` (the (device, num) index). */
export async function countItems(db: Db, userId: string, query: Omit<ItemsPageQuery, 'before' | 'limit'> & { throughNum: number }): Promise<number> {
  let q = db.selectFrom('items').select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId).where('device_id', '=', query.deviceId).where('num', '<=', query.throughNum);
  if (query.startDate !== undefined) q = q.where('created_at', '>=', query.startDate);
  if (query.endDate !== undefined) q = q.where('created_at', '<=', query.endDate);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Items of one device of the account, in the list form. */
export async function findCompactItems(db: Db, userId: string, deviceId: string, ids: string[]): Promise<CompactItem[]> {
  const rows = await selectCompact(db).where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', 'in', ids).execute();
  return rows.map((row) => toCompactItem(row));
}

export async function findItem(db: Db, blobs: BlobStore, userId: string, id: string): Promise<CapturedItem | undefined> {
  const row = await db.selectFrom('items').selectAll().where('user_id', '=', userId).where('id', '=', id)
    .orderBy('updated_at', 'desc').executeTakeFirst();
  return row && toFullItem(row, blobs);
}

/** Full items of one device of the account with these ids, in the order asked for; ids it does not hold are left out. */
export async function findDeviceItems(db: Db, blobs: BlobStore, userId: string, deviceId: string, ids: readonly string[]): Promise<CapturedItem[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('items').selectAll().where('user_id', '=', userId).where('device_id', '=', deviceId)
    .where('id', 'in', [...new Set(ids)]).execute();
  return Promise.all(inAskedOrder(rows, ids).map((row) => toFullItem(row, blobs)));
}

/** Deletes the account's items with these ids and their blobs; answers what was deleted, per device. */
export async function deleteItems(db: Db, blobs: BlobStore, userId: string, ids: string[]): Promise<Array<{ deviceId: string; id: string }>> {
  if (ids.length === 0) return [];
  const deleted: Array<{ deviceId: string; id: string }> = [];
  const keys: string[] = [];
  // Chunked so that a large selection stays under both engines' bound-parameter limits.
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const rows = await db.deleteFrom('items').where('user_id', '=', userId).where('id', 'in', chunk)
      .returning(['device_id', 'id', 'request_body_blob', 'response_body_blob', 'image_blob']).execute();
    for (const r of rows) deleted.push({ deviceId: r.device_id, id: r.id });
    keys.push(...blobKeysOf(rows));
  }
  await blobs.delete(keys);
  return deleted;
}

/** Removes every item of one device of the account (and their blobs); answers how many. */
export async function clearDeviceItems(db: Db, blobs: BlobStore, userId: string, deviceId: string): Promise<number> {
  const result = await db.deleteFrom('items').where('user_id', '=', userId).where('device_id', '=', deviceId).executeTakeFirst();
  await blobs.deleteDevice(userId, deviceId);
  return Number(result.numDeletedRows);
}

/**
 * Retention: deletes the expired ones among a device's next `limit` items after display number
 * `after` (the (device, num) index, so no extra index slows ingest down). Answers the ids
 * deleted and where the next call should go on, or null when the walk should stop: a device's
 * items arrive roughly in creation order, so a page with nothing expired ends it. Not scoped to
 * an owner: it runs for every account.
 */
export async function deleteExpiredItemsOfDevice(
  db: Db, blobs: BlobStore, { userId, deviceId }: DeviceKey, cutoff: number, after: number, limit: number,
): Promise<{ deleted: string[]; next: number | null }> {
  const rows = await db.selectFrom('items').select(['id', 'num', 'created_at', 'request_body_blob', 'response_body_blob', 'image_blob'])
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where('num', '>', after).orderBy('num').limit(limit).execute();
  const expired = rows.filter((r) => Number(r.created_at) < cutoff);
  if (expired.length === 0) return { deleted: [], next: null };
  await db.deleteFrom('items').where('user_id', '=', userId).where('device_id', '=', deviceId)
    .where('id', 'in', expired.map((r) => r.id)).execute();
  await blobs.delete(blobKeysOf(expired));
  return { deleted: expired.map((r) => r.id), next: rows.length < limit ? null : Number(rows[rows.length - 1]!.num) };
}

// ---- ingest ----
// The ingest commits through these builders: executed as they are on PostgreSQL, compiled once
// to prepared statements on SQLite (ingest/item-store.ts). Either way the SQL is written here.

/**
 * PostgreSQL: display numbers already given to items of a device that are sent again (resends,
 * completions), with the ids as one array parameter (a long IN list costs PostgreSQL to parse).
 */
export function selectExistingItemsPg(db: Kysely<Database>, userId: string, deviceId: string, ids: string[]) {
  return db.selectFrom('items').select(['id', 'num', 'size'])
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where(sql<boolean>`id = any(${ids}::text[])`);
}

/** The devices of a commit, by (account, install id), with the last display number each gave out. */
export function selectCommitDevices(db: Kysely<Database>, devices: DeviceKey[]) {
  return db.selectFrom('devices').select(['id', 'user_id', 'last_num'])
    .where((eb) => eb(eb.refTuple('user_id', 'id'), 'in', devices.map((d) => eb.tuple(d.userId, d.deviceId))));
}

export function selectCompactItems(db: Kysely<Database>, userId: string, deviceId: string, ids: string[]) {
  return selectCompact(db).where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', 'in', ids);
}

/**
 * Inserts or updates items by (device, item id).
 *
 * An update keeps the display number, creation time, notes and mock state. A body that the new
 * version does not carry (`request_body` null) keeps the stored one: a network item is first sent
 * with its request and later completed with its response, and the completion need not repeat the
 * request body.
 */
export function upsertItems(db: Kysely<Database>, rows: NewItemRow[]) {
  return db.insertInto('items').values(rows).onConflict(onItemConflict);
}

/**
 * Inserts items that are not stored yet and leaves stored ones alone. On SQLite the ingest tries
 * this first: a plain insert costs less than the upsert with RETURNING, and `changes` says
 * whether the row was new; only resends and completions then take `upsertItems`.
 */
export function insertNewItems(db: Kysely<Database>, rows: NewItemRow[]) {
  return db.insertInto('items').values(rows).onConflict((oc) => oc.columns(['user_id', 'device_id', 'id']).doNothing());
}

const PG_COLUMN_TYPES: Partial<Record<ItemColumn, string>> = {
  num: 'bigint', status: 'integer', duration: 'double precision', size: 'bigint', sent_at: 'bigint', created_at: 'bigint',
  updated_at: 'bigint', is_mocked: 'integer',
};

/** The rows of a PostgreSQL upsert, as the record type `json_to_recordset` reads them into. */
const PG_ROW_TYPE = sql.raw(ITEM_COLUMNS.map((c) => `${c} ${PG_COLUMN_TYPES[c] ?? 'text'}`).join(', '));

/**
 * PostgreSQL only: a commit's rows as one JSON parameter, so that thousands of rows are one short
 * statement with one parameter. JSON.stringify and PostgreSQL's JSON reader are both native: this
 * costs the server about half the CPU of one array parameter per column (`unnest`, whose arrays
 * the driver escapes value by value), and unnest was itself twice as fast as multi-row VALUES.
 */
function pgRows(rows: NewItemRow[]) {
  return sql`select ${sql.join(ITEM_COLUMNS.map((c) => sql.ref(c)))} from json_to_recordset(${JSON.stringify(rows)}::json) as r(${PG_ROW_TYPE})`;
}

/** PostgreSQL: the upsert of `upsertItems`, rows as in `pgRows`. */
export function upsertItemsPg(db: Kysely<Database>, rows: NewItemRow[]) {
  return db.insertInto('items').columns(ITEM_COLUMNS).expression(pgRows(rows)).onConflict(onItemConflict);
}

/**
 * PostgreSQL: inserts the rows not stored yet and answers their ids; stored ones are left alone.
 * The ingest's common case (every item new) is then this one statement.
 */
export function insertNewItemsPg(db: Kysely<Database>, rows: NewItemRow[]) {
  return db.insertInto('items').columns(ITEM_COLUMNS).expression(pgRows(rows))
    .onConflict((oc) => oc.columns(['user_id', 'device_id', 'id']).doNothing()).returning('id');
}

/** PostgreSQL: gives new display numbers to items of one device (ids and numbers pairwise). */
export function renumberItemsPg(userId: string, deviceId: string, ids: string[], nums: number[]) {
  return sql`update items set num = n.num from unnest(${ids}::text[], ${nums}::bigint[]) as n(id, num)
    where items.user_id = ${userId} and items.device_id = ${deviceId} and items.id = n.id`;
}

function onItemConflict(oc: OnConflictBuilder<Database, 'items'>) {
  return oc.columns(['user_id', 'device_id', 'id']).doUpdateSet({
      type: sql`excluded.type`,
      level: sql`excluded.level`,
      method: sql`excluded.method`,
      url: sql`excluded.url`,
      status: sql`excluded.status`,
      duration: sql`excluded.duration`,
      size: sql`excluded.size`,
      sent_at: sql`excluded.sent_at`,
      updated_at: sql`excluded.updated_at`,
      tags: sql`excluded.tags`,
      // A mock set from the dashboard (mock_data) outlives the device sending the item again.
      is_mocked: sql`case when items.mock_data is not null then items.is_mocked else excluded.is_mocked end`,
      meta_data: sql`excluded.meta_data`,
      details: sql`excluded.details`,
      request_body: sql`coalesce(excluded.request_body, items.request_body)`,
      request_body_blob: sql`case when excluded.request_body is null then items.request_body_blob else excluded.request_body_blob end`,
      response_body: sql`coalesce(excluded.response_body, items.response_body)`,
      response_body_blob: sql`case when excluded.response_body is null then items.response_body_blob else excluded.response_body_blob end`,
      image_blob: sql`coalesce(excluded.image_blob, items.image_blob)`,
    });
}

/** Sets a device's last display number after a commit gave out new ones. */
export function updateLastNum(db: Kysely<Database>, userId: string, deviceId: string, lastNum: number) {
  return db.updateTable('devices').set({ last_num: lastNum }).where('user_id', '=', userId).where('id', '=', deviceId);
}

/** Adds received traffic to the account's daily counter. */
export function addTraffic(db: Kysely<Database>, usage: Array<{ userId: string; day: string; bytes: number; items: number }>) {
  return db.insertInto('traffic_usage')
    .values(usage.map((u) => ({ user_id: u.userId, day: u.day, bytes: u.bytes, items: u.items })))
    .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({
      bytes: sql`traffic_usage.bytes + excluded.bytes`,
      items: sql`traffic_usage.items + excluded.items`,
    }));
}

export async function findTraffic(db: Db, userId: string): Promise<Array<{ day: string; bytes: number; items: number }>> {
  const rows = await db.selectFrom('traffic_usage').select(['day', 'bytes', 'items']).where('user_id', '=', userId).orderBy('day').execute();
  return rows.map((r) => ({ day: r.day, bytes: Number(r.bytes), items: Number(r.items) }));
}
