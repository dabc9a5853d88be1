import type { Selectable } from 'kysely';
import {
  DEFAULT_FEATURE_TOGGLES, DEVICE_LIMIT, DEVICE_LIMITS, DeviceInfo, FeatureToggles,
  type Device, type DevicePlatform,
} from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import { bool, isTrue, type Db } from '../db/database';
import type { DevicesTable } from '../db/schema';
import { parseJson } from '../lib/json';

export type DeviceRow = Selectable<DevicesTable>;


/**
 * A device is online while its connection is open and heard from: the stored flag alone would stay
 * set forever after a server crash, so a silent device also counts as offline once its heartbeat
 * timeout has passed since `last_seen`.
 */
export function isOnline(row: Pick<DeviceRow, 'online' | 'last_seen'>, now: number): boolean {
  return isTrue(row.online) && now - row.last_seen <= DEVICE_LIMITS.heartbeatTimeoutMs;
}

export function toDevice(row: DeviceRow, now = Date.now()): Device {
  const parsedInfo = DeviceInfo.safeParse(parseJson(row.info));
  const info: DeviceInfo = parsedInfo.success ? parsedInfo.data : { platform: row.platform as DevicePlatform };
  const toggles = FeatureToggles.safeParse(parseJson(row.feature_toggles));
  return {
    ...info,
    id: row.id,
    name: row.name_override ?? info.name ?? info.model ?? row.id,
    group: row.group_override ?? info.group,
    online: isOnline(row, now),
    lastSeen: new Date(row.last_seen).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    featureToggles: toggles.success ? toggles.data : DEFAULT_FEATURE_TOGGLES,
    breakpointEnabled: isTrue(row.breakpoint_enabled),
  };
}

/** The account's devices, most recently seen first (the device list's default sort). */
export async function findDevicesForUser(db: Db, userId: string, now = Date.now()): Promise<Device[]> {
  const rows = await db.selectFrom('devices').selectAll().where('user_id', '=', userId)
    .orderBy('last_seen', 'desc').orderBy('id').execute();
  return rows.map((row) => toDevice(row, now));
}

export async function findDevice(db: Db, userId: string, id: string, now = Date.now()): Promise<Device | undefined> {
  const row = await findDeviceRow(db, userId, id);
  return row && toDevice(row, now);
}

export function findDeviceRow(db: Db, userId: string, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export interface DevicePatch {
  name?: string;
  group?: string;
  featureToggles?: FeatureToggles;
  breakpointEnabled?: boolean;
}

/** Applies a dashboard edit; answers the updated device, or undefined when the account has no such device. */
export async function updateDevice(db: Db, userId: string, id: string, patch: DevicePatch, now = Date.now()): Promise<Device | undefined> {
  const result = await db.updateTable('devices')
    .set({
      updated_at: now,
      ...(patch.name !== undefined ? { name_override: patch.name } : {}),
      ...(patch.group !== undefined ? { group_override: patch.group } : {}),
      ...(patch.featureToggles !== undefined ? { feature_toggles: JSON.stringify(patch.featureToggles) } : {}),
      ...(patch.breakpointEnabled !== undefined ? { breakpoint_enabled: bool(patch.breakpointEnabled) } : {}),
    })
    .where('user_id', '=', userId).where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findDevice(db, userId, id, now);
}

/**
 * Deletes the device with its items and then their blobs; false when there was no such device.
 * The device first: an ingest commit holding it finishes before, and the items it stored are
 * deleted with the rest (PostgreSQL has no cascade from devices to items, see migration 0013).
 */
export async function deleteDevice(db: Db, blobs: BlobStore, userId: string, id: string): Promise<boolean> {
  const deleted = await db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('devices').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await trx.deleteFrom('items').where('user_id', '=', userId).where('device_id', '=', id).execute();
    return true;
  });
  if (deleted) await blobs.deleteDevice(userId, id);
  return deleted;
}

/** Every device of every account, for jobs that walk all accounts (retention). */
export async function findAllDeviceKeys(db: Db): Promise<DeviceKey[]> {
  return (await db.selectFrom('devices').select(['user_id', 'id']).execute()).map((r) => ({ userId: r.user_id, deviceId: r.id }));
}

// ---- used by the device connection ----

export type HelloOutcome =
  | { ok: true; row: DeviceRow; created: boolean }
  | { ok: false; reason: 'device_limit' };

/**
 * Registers a device at hello: creates it (within the account's device limit) or refreshes what it
 * reports, and marks it online. A known device never counts against the limit again. A device is
 * the pair (account, install id): the same install id in another account is another device.
 */
export async function registerDeviceOnHello(
  db: Db, userId: string, id: string, info: DeviceInfo, now: number, limit = DEVICE_LIMIT,
): Promise<HelloOutcome> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('devices').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (existing) {
      await trx.updateTable('devices')
        .set({ info: JSON.stringify(info), platform: info.platform, online: 1, last_seen: now, updated_at: now })
        .where('user_id', '=', userId).where('id', '=', id).execute();
      const row = { ...existing, info: JSON.stringify(info), platform: info.platform, online: 1, last_seen: now, updated_at: now };
      return { ok: true, row, created: false } as const;
    }
    // Locks the account's row, so that two new devices saying hello at once are counted one after
    // the other (PostgreSQL's read committed would let both see 99); SQLite serializes anyway.
    await trx.updateTable('users').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', userId).execute();
    const { count } = await trx.selectFrom('devices').select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (Number(count) >= limit) return { ok: false, reason: 'device_limit' } as const;
    const row: DeviceRow = {
      id, user_id: userId, platform: info.platform, info: JSON.stringify(info), name_override: null, group_override: null,
      feature_toggles: JSON.stringify(DEFAULT_FEATURE_TOGGLES), breakpoint_enabled: 0, online: 1, last_seen: now, last_num: 0,
      created_at: now, updated_at: now,
    };
    await trx.insertInto('devices').values(row).execute();
    return { ok: true, row, created: true } as const;
  });
}

/** Updates what a connected device reports about itself (battery, memory, orientation...). */
export async function updateDeviceInfo(db: Db, userId: string, id: string, info: DeviceInfo, now: number): Promise<DeviceRow | undefined> {
  await db.updateTable('devices').set({ info: JSON.stringify(info), platform: info.platform, last_seen: now, updated_at: now })
    .where('user_id', '=', userId).where('id', '=', id).execute();
  return findDeviceRow(db, userId, id);
}

/** A device's identity: its install id within its account. */
export interface DeviceKey {
  userId: string;
  deviceId: string;
}

/** Records that these devices were heard from (heartbeats, items). */
export async function touchDevices(db: Db, devices: DeviceKey[], now: number): Promise<void> {
  if (devices.length === 0) return;
  await db.updateTable('devices').set({ last_seen: now, online: 1 })
    .where((eb) => eb(eb.refTuple('user_id', 'id'), 'in', devices.map((d) => eb.tuple(d.userId, d.deviceId))))
    .execute();
}

/**
 * Marks offline every device still flagged online but not heard from since `before` (its node died
 * without closing it), and answers those rows. Each row changes once, whichever node runs this.
 */
export async function markSilentDevicesOffline(db: Db, before: number): Promise<DeviceRow[]> {
  return db.updateTable('devices').set({ online: 0 }).where('online', '=', 1).where('last_seen', '<', before).returningAll().execute();
}

export async function markDeviceOffline(db: Db, userId: string, id: string, now: number): Promise<DeviceRow | undefined> {
  await db.updateTable('devices').set({ online: 0, last_seen: now }).where('user_id', '=', userId).where('id', '=', id).execute();
  return findDeviceRow(db, userId, id);
}
