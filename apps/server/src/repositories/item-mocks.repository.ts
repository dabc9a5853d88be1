import { ItemMockData, type DeviceItemMock } from '@spyglass/protocol';
import type { Db } from '../db/database';

/**
 * The mock state of captured items (columns is_mocked, mock, mock_data of `items`). Ingest keeps
 * them when a device sends an item again; only this module writes them.
 */

/** Stores an item's mock; false when the network item is not the user's (or does not exist). */
export async function setItemMock(db: Db, userId: string, deviceId: string, itemId: string, data: ItemMockData, now: number): Promise<boolean> {
  const result = await db.updateTable('items')
    .set({ is_mocked: data.isMocked ? 1 : 0, mock: JSON.stringify({ enabled: data.isMocked }), mock_data: JSON.stringify(data), updated_at: now })
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', '=', itemId).where('type', '=', 'network')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The item type, to tell a missing item from one that cannot be mocked. */
export async function findItemType(db: Db, userId: string, deviceId: string, itemId: string): Promise<string | undefined> {
  const row = await db.selectFrom('items').select('type')
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where('id', '=', itemId).executeTakeFirst();
  return row?.type;
}

/**
 * The device's enabled item mocks, as the device applies them. Rows whose stored mock no longer
 * parses are left out rather than sent half.
 */
export async function findItemMocksForDevice(db: Db, userId: string, deviceId: string): Promise<DeviceItemMock[]> {
  // The partial index items_mocked (migration 0004) serves this without reading other items.
  const rows = await db.selectFrom('items').select(['id', 'mock_data', 'updated_at'])
    .where('user_id', '=', userId).where('device_id', '=', deviceId).where('is_mocked', '=', 1)
    .execute();
  const mocks: DeviceItemMock[] = [];
  for (const row of rows) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.mock_data ?? 'null');
    } catch {
      continue;
    }
    const data = ItemMockData.safeParse(parsed);
    if (!data.success || !data.data.isMocked) continue;
    mocks.push({
      itemId: row.id,
      method: data.data.method,
      url: data.data.mockedUrl.trim() || data.data.url,
      statusCode: data.data.statusCode,
      headers: data.data.headers,
      body: data.data.body,
      delayMs: data.data.delayMs ?? 0,
      updatedAt: new Date(Number(row.updated_at)).toISOString(),
    });
  }
  return mocks;
}
