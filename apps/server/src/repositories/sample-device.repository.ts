import type { Db } from '../db/database';
import type { DeviceRow } from './devices.repository';
import type { NewItemRow } from './item-columns';

/**
 * Stores the sample device and its items in one transaction; an account that has it already keeps
 * what it has (the device's own key decides, so two calls at once add it once).
 */
export async function insertSampleDevice(db: Db, device: DeviceRow, items: NewItemRow[]): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const added = await trx.insertInto('devices').values(device).onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
      .returning('id').executeTakeFirst();
    if (!added) return false;
    if (items.length > 0) await trx.insertInto('items').values(items).execute();
    return true;
  });
}

/** Demo accounts created before `cutoff` (epoch ms), oldest first, at most `limit`. */
export async function findDemoUsersCreatedBefore(db: Db, cutoff: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('is_demo', '=', 1).where('created_at', '<', cutoff)
    .orderBy('created_at').limit(limit).execute();
  return rows.map((r) => r.id);
}
