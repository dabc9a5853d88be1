import type { Insertable, Kysely, OnConflictBuilder, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { CapturedItem, CompactItem, ItemMockData } from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { isTrue } from '../db/database';
import type { Database, ItemsTable } from '../db/schema';

export type ItemRow = Selectable<ItemsTable>;
export type NewItemRow = Insertable<ItemsTable>;

/** The columns the list needs: everything but bodies (their presence is selected as flags). */
const COMPACT_COLUMNS = [
  'user_id', 'device_id', 'id', 'num', 'type', 'level', 'method', 'url', 'status', 'duration', 'size', 'sent_at',
  'created_at', 'updated_at', 'tags', 'notes', 'is_mocked', 'mock', 'mock_data', 'meta_data', 'details',
] as const;

export type CompactItemRow = Pick<ItemRow, (typeof COMPACT_COLUMNS)[number]> & {
  has_request_body: number | boolean | null;
  has_response_body: number | boolean | null;
};

export const MAX_PAGE_LIMIT = 5000;

function json<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());
const flag = (v: number | boolean | null): boolean => v === true || Number(v) === 1;

/** JSON columns the caller already holds as values (ingest), so that they are not parsed again. */
export interface ParsedColumns {
  details: Record<string, unknown>;
  tags: string[];
  metaData: Record<string, unknown> | null;
}

function baseItem(row: Omit<CompactItemRow, 'has_request_body' | 'has_response_body'>, parsed?: ParsedColumns) {
  return {
    id: row.id,
    deviceId: row.device_id,
    num: Number(row.num),
    type: row.type,
    level: row.level,
    method: row.method,
    url: row.url,
    status: row.status,
    duration: row.duration === null ? null : Number(row.duration),
    size: Number(row.size),
    sentAt: iso(row.sent_at),
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
    tags: parsed ? parsed.tags : json<string[]>(row.tags, []),
    notes: row.notes,
    isMocked: isTrue(row.is_mocked),
    mock: json<{ enabled: boolean } | null>(row.mock, null),
    mockData: json<ItemMockData | null>(row.mock_data, null),
    metaData: parsed ? parsed.metaData : json<Record<string, unknown> | null>(row.meta_data, null),
    details: parsed ? parsed.details : json<Record<string, unknown>>(row.details, {}),
  };
}

/** Rows are mapped to the protocol's item shape here and nowhere else. */
export function toCompactItem(row: CompactItemRow, parsed?: ParsedColumns): CompactItem {
  const item = baseItem(row, parsed) as CompactItem;
  if (row.type === 'network') {
    item.hasRequestBody = flag(row.has_request_body);
    item.hasResponseBody = flag(row.has_response_body);
  }
  return item;
}

/** The full item: inline bodies from the row, large ones and screenshots read from the blob store. */
export async function toFullItem(row: ItemRow, blobs: BlobStore): Promise<CapturedItem> {
  const item = baseItem(row) as CapturedItem;
  const details = item.details as Record<string, unknown>;
  if (row.type === 'network') {
    const request = details.request as Record<string, unknown> | undefined;
    const response = details.response as Record<string, unknown> | undefined;
    const requestBody = row.request_body_blob ? await blobs.read(row.request_body_blob) ?? row.request_body : row.request_body;
    const responseBody = row.response_body_blob ? await blobs.read(row.response_body_blob) ?? row.response_body : row.response_body;
    if (request && requestBody !== null) request.body = requestBody;
    if (response && responseBody !== null) response.body = responseBody;
  } else if (row.type === 'screenshot' && row.image_blob) {
    const image = await blobs.read(row.image_blob);
    if (image !== null) details.image = image;
  }
  return item;
}

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
  return db.selectFrom('items').select(COMPACT_COLUMNS).select((eb) => [
    eb.case().when('request_body', 'is not', null).then(1).else(0).end().as('has_request_body'),
    eb.case().when('response_body', 'is not', null).then(1).else(0).end().as('has_response_body'),
  ]);
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

export async function findItem(db: Db, blobs: BlobStore, userId: string, id: string): Promise<CapturedItem | undefined> {
  const row = await db.selectFrom('items').selectAll().where('user_id', '=', userId).where('id', '=', id)
    .orderBy('updated_at', 'desc').executeTakeFirst();
  return row && toFullItem(row, blobs);
}

function blobKeysOf(rows: Array<Pick<ItemRow, 'request_body_blob' | 'response_body_blob' | 'image_blob'>>): string[] {
  return rows.flatMap((r) => [r.request_body_blob, r.response_body_blob, r.image_blob]).filter((k): k is string => k !== null);
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

// ---- ingest ----
// The ingest commits through these builders: executed as they are on PostgreSQL, compiled once
// to prepared statements on SQLite (ingest/item-store.ts). Either way the SQL is written here.

/**
 * PostgreSQL: display numbers already given to items of a device that are sent again (resends,
 * completions), with the ids as one array parameter (a long IN list costs PostgreSQL to parse).
 */
export function selectExistingItemsPg(db: Kysely<Database>, deviceId: string, ids: string[]) {
  return db.selectFrom('items').select(['id', 'num']).where('device_id', '=', deviceId).where(sql<boolean>`id = any(${ids}::text[])`);
}

export function selectCommitDevices(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('devices').select(['id', 'user_id', 'last_num']).where('id', 'in', ids);
}

export function selectCompactItems(db: Kysely<Database>, deviceId: string, ids: string[]) {
  return selectCompact(db).where('device_id', '=', deviceId).where('id', 'in', ids);
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
  return db.insertInto('items').values(rows).onConflict((oc) => oc.columns(['device_id', 'id']).doNothing());
}

export const ITEM_COLUMNS = [
  'user_id', 'device_id', 'id', 'num', 'type', 'level', 'method', 'url', 'status', 'duration', 'size', 'sent_at', 'created_at',
  'updated_at', 'tags', 'notes', 'is_mocked', 'mock', 'mock_data', 'meta_data', 'details', 'request_body', 'request_body_blob',
  'response_body', 'response_body_blob', 'image_blob',
] as const satisfies ReadonlyArray<keyof NewItemRow>;

const PG_COLUMN_TYPES: Partial<Record<(typeof ITEM_COLUMNS)[number], string>> = {
  num: 'bigint', status: 'integer', duration: 'double precision', size: 'bigint', sent_at: 'bigint', created_at: 'bigint',
  updated_at: 'bigint', is_mocked: 'integer',
};

/**
 * PostgreSQL only: the same upsert with one array parameter per column (`unnest`), so that a
 * commit of thousands of rows is one short statement with 26 parameters instead of one with
 * tens of thousands; measured about twice as fast as multi-row VALUES (bench/suites/10-ingest.ts).
 */
export function upsertItemsPg(db: Kysely<Database>, rows: NewItemRow[]) {
  const arrays = ITEM_COLUMNS.map((c) => sql`${rows.map((r) => r[c] ?? null)}::${sql.raw(PG_COLUMN_TYPES[c] ?? 'text')}[]`);
  return db.insertInto('items').columns(ITEM_COLUMNS).expression(sql`select * from unnest(${sql.join(arrays)})`).onConflict(onItemConflict);
}

function onItemConflict(oc: OnConflictBuilder<Database, 'items'>) {
  return oc.columns(['device_id', 'id']).doUpdateSet({
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
export function updateLastNum(db: Kysely<Database>, deviceId: string, lastNum: number) {
  return db.updateTable('devices').set({ last_num: lastNum }).where('id', '=', deviceId);
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
