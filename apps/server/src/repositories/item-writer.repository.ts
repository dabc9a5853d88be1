import type SQLite from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { CompactItem } from '@spyglass/protocol';
import type { DatabaseHandle } from '../db/database';
import type { Database } from '../db/schema';
import { ITEM_COLUMNS, toCompactItem, type CompactItemRow, type ItemColumn, type NewItemRow } from './item-columns';
import type { DeviceKey } from './devices.repository';
import {
  addTraffic, insertNewItems, insertNewItemsPg, renumberItemsPg, selectCommitDevices, selectCompactItems, selectExistingItemsPg, updateLastNum, upsertItems, upsertItemsPg,
} from './items.repository';
import { addTrafficHours, selectStoredItemSize } from './usage.repository';

export interface CommitDevice {
  id: string;
  user_id: string;
  last_num: number;
}

export interface TrafficUsage {
  userId: string;
  day: string;
  /** Epoch ms of the UTC hour's start. */
  hour: number;
  bytes: number;
  items: number;
}

/** What one ingest commit does, inside one transaction. */
export interface ItemWriterOps {
  devices(keys: DeviceKey[]): Promise<CommitDevice[]> | CommitDevice[];
  /**
   * Upserts one device's rows (all of one account and install id). New items get the display
   * numbers after `lastNum`, in order; items stored before keep theirs.
   */
  upsertForDevice(rows: ItemColumns[], lastNum: number): Promise<UpsertOutcome> | UpsertOutcome;
  setLastNum(device: DeviceKey, lastNum: number): Promise<void> | void;
  addTraffic(usage: TrafficUsage[]): Promise<void> | void;
}

export type ItemColumns = Omit<NewItemRow, 'num'>;

export interface UpsertOutcome {
  /** The device's last display number after this upsert. */
  lastNum: number;
  /** Per row: its display number, and whether it was new. */
  nums: number[];
  isNew: boolean[];
  /** Per row: the size stored before this upsert (null for a new item), so traffic counts only what grew. */
  storedSizes: Array<number | null>;
}

export interface ItemWriter {
  transaction<T>(fn: (ops: ItemWriterOps) => Promise<T>): Promise<T>;
  /** Items as stored, in the list form (for items that were updated rather than inserted). */
  compact(device: DeviceKey, ids: string[]): Promise<CompactItem[]>;
}

const CHUNK = 500;
/** Rows per statement: bounds the size of one statement's arrays. */
const UPSERT_CHUNK = 2000;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** PostgreSQL: the repository's queries, executed in a Kysely transaction. */
function kyselyWriter(db: Kysely<Database>): ItemWriter {
  const ops = (trx: Kysely<Database>): ItemWriterOps => ({
    async devices(keys) {
      // Items have no foreign key to their device here (0013): the lock makes a concurrent delete
      // of the device wait for this commit, and then delete its items too.
      const rows = await selectCommitDevices(trx, keys).forKeyShare().execute();
      return rows.map((r) => ({ ...r, last_num: Number(r.last_num) }));
    },
    // Every row is first offered the next number and inserted if new (the common case: one
    // statement). Rows stored before (resends, completions) keep their numbers: they are upserted
    // after, and the new rows behind them numbered again without the gaps they left.
    async upsertForDevice(rows, lastNum) {
      const userId = rows[0]?.user_id ?? '';
      const deviceId = rows[0]?.device_id ?? '';
      const offered = rows.map((r, i) => ({ ...r, num: lastNum + 1 + i }));
      const inserted = new Set<string>();
      for (const part of chunks(offered, UPSERT_CHUNK)) {
        for (const r of await insertNewItemsPg(trx, part).execute()) inserted.add(r.id);
      }
      const isNew = rows.map((r) => inserted.has(r.id));
      if (inserted.size === rows.length) {
        return { lastNum: lastNum + rows.length, nums: offered.map((r) => r.num), isNew, storedSizes: rows.map(() => null) };
      }
      const stored = new Map<string, { num: number; size: number }>();
      const again = rows.filter((_, i) => !isNew[i]);
      for (const part of chunks(again.map((r) => r.id), UPSERT_CHUNK)) {
        for (const r of await selectExistingItemsPg(trx, userId, deviceId, part).execute()) stored.set(r.id, { num: Number(r.num), size: Number(r.size) });
      }
      let last = lastNum;
      const nums = rows.map((r, i) => (isNew[i] ? ++last : stored.get(r.id)!.num));
      const moved = offered.flatMap((r, i) => (isNew[i] && r.num !== nums[i] ? [i] : []));
      for (const part of chunks(moved, UPSERT_CHUNK)) {
        await renumberItemsPg(userId, deviceId, part.map((i) => rows[i]!.id), part.map((i) => nums[i]!)).execute(trx);
      }
      for (const part of chunks(again.map((r) => ({ ...r, num: stored.get(r.id)!.num })), UPSERT_CHUNK)) await upsertItemsPg(trx, part).execute();
      return { lastNum: last, nums, isNew, storedSizes: rows.map((r, i) => (isNew[i] ? null : stored.get(r.id)!.size)) };
    },
    async setLastNum({ userId, deviceId }, lastNum) {
      await updateLastNum(trx, userId, deviceId, lastNum).execute();
    },
    async addTraffic(usage) {
      if (usage.length === 0) return;
      await addTraffic(trx, usage).execute();
      await addTrafficHours(trx, usage).execute();
    },
  });
  return {
    transaction: (fn) => db.transaction().execute((trx) => fn(ops(trx))),
    async compact({ userId, deviceId }, ids) {
      const out: CompactItem[] = [];
      for (const part of chunks(ids, CHUNK)) {
        out.push(...(await selectCompactItems(db, userId, deviceId, part).execute()).map((r) => toCompactItem(r)));
      }
      return out;
    },
  };
}

/** A parameter value standing for a named slot, so that compiled parameters can be mapped back to names. */
const slot = (name: string) => `\u0000slot:${name}`;

/**
 * Compiles a Kysely query built with slot values and prepares it: answers the statement and a
 * binder turning named values into its positional parameters.
 */
function prepare<K extends string>(sqlite: SQLite.Database, query: Compilable, names: readonly K[]) {
  const compiled = query.compile();
  const order = compiled.parameters.map((p) => {
    const name = names.find((n) => slot(n) === p);
    if (!name) throw new Error(`Unmapped parameter in ${compiled.sql}`);
    return name;
  });
  const statement = sqlite.prepare(compiled.sql);
  return { statement, order, bind: (values: Record<K, unknown>) => order.map((n) => values[n] ?? null) };
}

/**
 * SQLite: the same repository queries, compiled once by Kysely and run as better-sqlite3
 * prepared statements, one row at a time, in one synchronous transaction. On the embedded engine
 * this is several times faster than building a multi-row statement per commit, and the commit
 * holds Kysely's connection (its mutex) so that no other query interleaves with it.
 */
function sqliteWriter(db: Kysely<Database>, sqlite: SQLite.Database): ItemWriter {
  const s = (name: string) => slot(name) as never;
  const slots = Object.fromEntries(ITEM_COLUMNS.map((c) => [c, s(c)])) as NewItemRow;
  const insert = prepare(sqlite, insertNewItems(db, [slots]), ITEM_COLUMNS);
  const upsert = prepare(sqlite, upsertItems(db, [slots]).returning('num'), ITEM_COLUMNS);
  // Both statements take the columns in the same order, so one parameter array serves both.
  if (insert.order.join() !== upsert.order.join()) throw new Error('insert and upsert bind their columns differently');
  const numAt = insert.order.indexOf('num');
  const upsertNum = upsert.statement.pluck();
  const device = prepare(sqlite, selectCommitDevices(db, [{ userId: s('userId'), deviceId: s('deviceId') }]), ['userId', 'deviceId'] as const);
  const compact = prepare(sqlite, selectCompactItems(db, s('userId'), s('deviceId'), [s('id')]), ['userId', 'deviceId', 'id'] as const);
  const lastNum = prepare(sqlite, updateLastNum(db, s('userId'), s('deviceId'), s('lastNum')), ['userId', 'deviceId', 'lastNum'] as const);
  const traffic = prepare(sqlite, addTraffic(db, [{ userId: s('userId'), day: s('day'), bytes: s('bytes'), items: s('items') }]),
    ['userId', 'day', 'bytes', 'items'] as const);
  const trafficHour = prepare(sqlite, addTrafficHours(db, [{ userId: s('userId'), hour: s('hour'), bytes: s('bytes'), items: s('items') }]),
    ['userId', 'hour', 'bytes', 'items'] as const);
  const storedSize = prepare(sqlite, selectStoredItemSize(db, s('userId'), s('deviceId'), s('id')), ['userId', 'deviceId', 'id'] as const);
  const storedSizeOf = storedSize.statement.pluck();
  const begin = sqlite.prepare('begin immediate');
  const commit = sqlite.prepare('commit');
  const rollback = sqlite.prepare('rollback');

  const ops: ItemWriterOps = {
    devices: (keys) => keys.flatMap((key) => {
      const row = device.statement.get(device.bind(key)) as CommitDevice | undefined;
      return row ? [{ ...row, last_num: Number(row.last_num) }] : [];
    }),
    // Each row is offered the next number. A new item (the common case) is one plain insert; an
    // item stored before (a resend, a completion) is then upserted, which keeps its own number.
    upsertForDevice(rows, lastNum) {
      const nums: number[] = [];
      const isNew: boolean[] = [];
      const storedSizes: Array<number | null> = [];
      const order = insert.order;
      // Reused for every row: better-sqlite3 binds the values before run() returns.
      const params = new Array<unknown>(order.length);
      let last = lastNum;
      for (const row of rows) {
        const values = row as Record<ItemColumn, unknown>;
        for (let i = 0; i < params.length; i++) params[i] = values[order[i]!] ?? null;
        params[numAt] = last + 1;
        if (insert.statement.run(params).changes === 1) {
          last += 1;
          nums.push(last);
          isNew.push(true);
          storedSizes.push(null);
        } else {
          storedSizes.push(Number(storedSizeOf.get(storedSize.bind({ userId: row.user_id, deviceId: row.device_id, id: row.id }))));
          nums.push(Number(upsertNum.get(params)));
          isNew.push(false);
        }
      }
      return { lastNum: last, nums, isNew, storedSizes };
    },
    setLastNum({ userId, deviceId }, n) {
      lastNum.statement.run(lastNum.bind({ userId, deviceId, lastNum: n }));
    },
    addTraffic(usage) {
      for (const u of usage) {
        traffic.statement.run(traffic.bind(u));
        trafficHour.statement.run(trafficHour.bind(u));
      }
    },
  };

  return {
    transaction: (fn) => db.connection().execute(async () => {
      begin.run();
      try {
        const result = await fn(ops);
        commit.run();
        return result;
      } catch (err) {
        if (sqlite.inTransaction) rollback.run();
        throw err;
      }
    }),
    compact: ({ userId, deviceId }, ids) => db.connection().execute(async () => ids.flatMap((id) => {
      const row = compact.statement.get(compact.bind({ userId, deviceId, id })) as CompactItemRow | undefined;
      return row ? [toCompactItem(row)] : [];
    })),
  };
}

export function createItemWriter(handle: DatabaseHandle): ItemWriter {
  return handle.sqlite ? sqliteWriter(handle.db, handle.sqlite) : kyselyWriter(handle.db);
}
