import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { SessionDevice, type CapturedItem, type CompactItem, type Device, type Session, type SharedSessionInfo } from '@spyglass/protocol';
import { BlobStore, type BlobField } from '../blobs/blob-store';
import type { DatabaseHandle, Db } from '../db/database';
import { SESSION_ITEM_HAS_BLOB } from '../db/migrations';
import { bool, isTrue } from '../db/database';
import type { Database, SessionItemsTable, SessionsTable } from '../db/schema';
import { randomAlphanumeric } from '../lib/crypto';
import { COMPACT_COLUMNS, COPIED_COLUMNS, bodyFlags, inAskedOrder, toCompactItem, toFullItem } from './item-columns';

export type SessionRow = Selectable<SessionsTable>;
export type SessionItemRow = Selectable<SessionItemsTable>;

/** 22 letters and digits, about 131 random bits: session ids travel in public links. */
export const newSessionId = (): string => randomAlphanumeric(22);

/**
 * A session's blobs live under their own owner directory, so that clearing the device's live
 * items (which removes the device's blob directory) leaves them in place and deleting the session
 * is one directory removal. Device ids cannot contain NUL, so no device can share this name.
 */
export const sessionBlobOwner = (sessionId: string): string => `\0session:${sessionId}`;

function parseDevice(text: string, fallbackName: string): SessionDevice {
  try {
    return SessionDevice.parse(JSON.parse(text));
  } catch {
    return { name: fallbackName, clientAppVersion: null, platform: null, model: null, systemVersion: null };
  }
}

/** Rows are mapped to the protocol's session shape here and nowhere else. */
export function toSession(row: SessionRow, shareBaseUrl: string): Session {
  const device = parseDevice(row.device, row.device_id);
  const isShared = isTrue(row.is_shared);
  return {
    id: row.id,
    name: row.name,
    deviceId: row.device_id,
    isShared,
    shareUrl: isShared ? `${shareBaseUrl}/shared-sessions/${row.id}` : null,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
    device: { name: device.name, clientAppVersion: device.clientAppVersion },
    metaData: { requests: Number(row.item_count), device },
  };
}

export function toSharedSessionInfo(row: SessionRow): SharedSessionInfo {
  const { id, name, deviceId, createdAt, device, metaData } = toSession(row, '');
  return { id, name, deviceId, createdAt, device, metaData };
}

export function deviceSnapshot(device: Device): SessionDevice {
  return {
    name: device.name,
    clientAppVersion: device.clientAppVersion ?? null,
    platform: device.platform,
    model: device.model ?? null,
    systemVersion: device.systemVersion ?? device.version ?? null,
  };
}

export class MissingRequestsError extends Error {
  constructor(readonly missing: number, readonly total: number) {
    super(`${missing} of ${total} requests were not found on this device`);
  }
}

export interface NewSession {
  userId: string;
  device: Device;
  name: string;
  requestIds: string[];
  now: number;
}

/** `id` is one of these ids, as one parameter: SQLite reads a JSON array, PostgreSQL a text[]. */
function idIn(engine: DatabaseHandle['engine'], ids: string[]) {
  return engine === 'postgres'
    ? sql<boolean>`id = any(${ids}::text[])`
    : sql<boolean>`id in (select value from json_each(${JSON.stringify(ids)}))`;
}

const BLOB_COLUMNS: Array<{ column: 'request_body_blob' | 'response_body_blob' | 'image_blob'; field: BlobField }> = [
  { column: 'request_body_blob', field: 'requestBody' },
  { column: 'response_body_blob', field: 'responseBody' },
  { column: 'image_blob', field: 'image' },
];

/**
 * The rows of `deviceId` among `ids`, found through the (user_id, id) index: on SQLite the unary
 * plus keeps the planner from walking the device's (user_id, device_id, num) index instead, which
 * reads every item of the device for each batch.
 */
function ofDevice(engine: DatabaseHandle['engine'], deviceId: string) {
  return engine === 'postgres' ? sql<boolean>`device_id = ${deviceId}` : sql<boolean>`+device_id = ${deviceId}`;
}

/** Ids per statement when a session is saved: each batch is its own short statement. */
const SAVE_BATCH = 1000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Saves a session. The chosen ids are resolved to the device's display numbers first (ids and
 * numbers only, in batches), so that a missing or foreign id refuses the save before anything is
 * written. The rows are then copied by INSERT ... SELECT (in the database, never through Node),
 * numbered 1..N in the order they arrived (the device's own display numbers: oldest first
 * without sorting the rows), in batches of SAVE_BATCH ids, each a short transaction of its own
 * with a turn of the event loop after it, so that a 100,000-item session neither blocks the
 * event loop nor holds the database (SQLite's one connection) from ingest and other accounts.
 * Blobs are hard-linked into the session's own directory. A batch that finds fewer rows than it
 * expects (items deleted meanwhile) or fails otherwise removes the session and its blobs again.
 */
export async function createSession(database: DatabaseHandle, blobs: BlobStore, input: NewSession): Promise<SessionRow> {
  const { db, engine } = database;
  const ids = [...new Set(input.requestIds)];
  const chosen: Array<{ id: string; num: number }> = [];
  for (let i = 0; i < ids.length; i += SAVE_BATCH) {
    chosen.push(...await db.selectFrom('items').select(['id', 'num'])
      .where('user_id', '=', input.userId)
      .where(ofDevice(engine, input.device.id))
      .where(idIn(engine, ids.slice(i, i + SAVE_BATCH)))
      .execute());
    await nextTurn();
  }
  if (chosen.length !== ids.length) throw new MissingRequestsError(ids.length - chosen.length, ids.length);
  chosen.sort((a, b) => Number(a.num) - Number(b.num));

  const id = newSessionId();
  const row: SessionRow = {
    id,
    user_id: input.userId,
    device_id: input.device.id,
    name: input.name,
    is_shared: 0,
    device: JSON.stringify(deviceSnapshot(input.device)),
    item_count: ids.length,
    created_at: input.now,
    updated_at: input.now,
  };
  const owner = sessionBlobOwner(id);
  await db.insertInto('sessions').values(row).execute();
  try {
    for (let offset = 0; offset < chosen.length; offset += SAVE_BATCH) {
      const batch = chosen.slice(offset, offset + SAVE_BATCH).map((c) => c.id);
      await db.transaction().execute(async (trx) => {
        // The batch holds consecutive display numbers, so its own order continues the session's.
        const copy = trx.selectFrom('items')
          .select(sql<string>`cast(${id} as text)`.as('session_id'))
          .select(sql<number>`row_number() over (order by num) + ${offset}`.as('num'))
          .select(COPIED_COLUMNS)
          .where('user_id', '=', input.userId)
          .where(ofDevice(engine, input.device.id))
          .where(idIn(engine, batch));
        const result = await trx.insertInto('session_items')
          .columns(['session_id', 'num', ...COPIED_COLUMNS])
          .expression(copy)
          .executeTakeFirst();
        const copied = Number(result.numInsertedOrUpdatedRows ?? 0n);
        if (copied !== batch.length) throw new MissingRequestsError(batch.length - copied, ids.length);
        // Through the partial index: RETURNING all rows, or a scan of them, cost more than the copy.
        const withBlobs = await trx.selectFrom('session_items')
          .select(['num', 'id', 'request_body_blob', 'response_body_blob', 'image_blob'])
          .where('session_id', '=', id)
          .where(sql.raw<boolean>(`(${SESSION_ITEM_HAS_BLOB})`))
          .where('num', '>', offset)
          .execute();
        await linkBlobs(trx, blobs, input.userId, id, owner, withBlobs);
      });
      await nextTurn();
    }
  } catch (error) {
    // Its items cascade.
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    await blobs.deleteDevice(input.userId, owner);
    throw error;
  }
  return row;
}

/** What an account keeps in sessions: their number and their items in all (the per-account caps). */
export async function sessionTotals(db: Db, userId: string): Promise<{ sessions: number; items: number }> {
  const row = await db.selectFrom('sessions')
    .select((eb) => [eb.fn.countAll<number>().as('sessions'), eb.fn.coalesce(eb.fn.sum<number>('item_count'), sql<number>`0`).as('items')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { sessions: Number(row.sessions), items: Number(row.items) };
}

/** Points the session's rows at their own links of the live blobs (few rows: large bodies and screenshots). */
async function linkBlobs(
  trx: Kysely<Database>, blobs: BlobStore, userId: string, sessionId: string, owner: string,
  rows: Array<Pick<SessionItemRow, 'num' | 'id' | 'request_body_blob' | 'response_body_blob' | 'image_blob'>>,
): Promise<void> {
  for (const r of rows) {
    const update: Partial<Record<(typeof BLOB_COLUMNS)[number]['column'], string | null>> = {};
    for (const { column, field } of BLOB_COLUMNS) {
      const from = r[column];
      if (from === null) continue;
      const to = BlobStore.key(userId, owner, r.id, field);
      // A blob deleted since its row was read (a concurrent clear) drops to the row's preview,
      // which is what the live item would show as well.
      update[column] = (await blobs.link(from, to)) ? to : null;
    }
    await trx.updateTable('session_items').set(update).where('session_id', '=', sessionId).where('num', '=', r.num).execute();
  }
}

/** The account's sessions, newest first. */
export function findSessionsForUser(db: Db, userId: string): Promise<SessionRow[]> {
  return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export function findSession(db: Db, userId: string, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Not scoped to an owner: a shared session is public by its owner's choice, readable by anyone holding its 22-character id. */
export function findSharedSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).where('is_shared', '=', 1).executeTakeFirst();
}

export async function updateSession(db: Db, userId: string, id: string, patch: { name?: string; isShared?: boolean }, now: number): Promise<SessionRow | undefined> {
  // updated_at moves on every change: it is the ETag of the shared data, and a re-share must not
  // let a cache answer what an earlier share showed.
  await db.updateTable('sessions').set({
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.isShared !== undefined ? { is_shared: bool(patch.isShared) } : {}),
    updated_at: now,
  }).where('user_id', '=', userId).where('id', '=', id).execute();
  return findSession(db, userId, id);
}

/** Deletes sessions of one account (their items cascade) and their blobs; answers the ids deleted. */
export async function deleteSessions(db: Db, blobs: BlobStore, userId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', 'in', ids).returning('id').execute();
  await Promise.all(rows.map((r) => blobs.deleteDevice(userId, sessionBlobOwner(r.id))));
  return rows.map((r) => r.id);
}

/** One page of a session's items, oldest first, without bodies. */
export async function findSessionItemsPage(db: Db, userId: string, sessionId: string, after: number, limit: number): Promise<{ items: CompactItem[]; nextAfter: number | null }> {
  const rows = await db.selectFrom('session_items').select(COMPACT_COLUMNS).select(bodyFlags)
    .where('session_id', '=', sessionId).where('user_id', '=', userId).where('num', '>', after)
    .orderBy('num').limit(limit + 1).execute();
  const items = rows.slice(0, limit).map((r) => toCompactItem(r));
  const last = items[items.length - 1];
  return { items, nextAfter: rows.length > limit && last ? last.num : null };
}

export async function findSessionItem(db: Db, blobs: BlobStore, userId: string, sessionId: string, itemId: string): Promise<CapturedItem | undefined> {
  const row = await db.selectFrom('session_items').selectAll()
    .where('session_id', '=', sessionId).where('user_id', '=', userId).where('id', '=', itemId).executeTakeFirst();
  return row && toFullItem(row, blobs);
}

/** Full items of the session with these ids, in the order asked for; ids it does not hold are left out. */
export async function findSessionItems(db: Db, blobs: BlobStore, userId: string, sessionId: string, ids: readonly string[]): Promise<CapturedItem[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('session_items').selectAll().where('session_id', '=', sessionId).where('user_id', '=', userId)
    .where('id', 'in', [...new Set(ids)]).execute();
  return Promise.all(inAskedOrder(rows, ids).map((row) => toFullItem(row, blobs)));
}

/** Full rows of a session after display number `after`, for the streamed data.json of a shared session. */
export function findSessionItemRows(db: Db, sessionId: string, after: number, limit: number): Promise<SessionItemRow[]> {
  return db.selectFrom('session_items').selectAll().where('session_id', '=', sessionId).where('num', '>', after)
    .orderBy('num').limit(limit).execute();
}

/**
 * Retention: deletes up to `limit` sessions created before `cutoff` (their items cascade) and
 * their blobs, one session per statement so that a large one does not hold the database long
 * together with others. Answers how many; not scoped to an owner: it runs for every account.
 */
export async function deleteExpiredSessions(db: Db, blobs: BlobStore, cutoff: number, limit: number, between: () => Promise<void>): Promise<number> {
  const sessions = await db.selectFrom('sessions').select(['id', 'user_id']).where('created_at', '<', cutoff).limit(limit).execute();
  for (const s of sessions) {
    await db.deleteFrom('sessions').where('id', '=', s.id).execute();
    await blobs.deleteDevice(s.user_id, sessionBlobOwner(s.id));
    await between();
  }
  return sessions.length;
}

/** A page of every account's sessions in id order (the retention job's walk): owner and age. */
export function findSessionsPage(db: Db, after: string, limit: number): Promise<Array<{ id: string; user_id: string; created_at: number }>> {
  return db.selectFrom('sessions').select(['id', 'user_id', 'created_at']).where('id', '>', after).orderBy('id').limit(limit).execute();
}

/** Deletes one session (its items go with it) and its blobs. */
export async function deleteSessionWithBlobs(db: Db, blobs: BlobStore, userId: string, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '=', sessionId).execute();
  await blobs.deleteDevice(userId, sessionBlobOwner(sessionId));
}
