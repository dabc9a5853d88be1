import type { DeviceItem } from '@spyglass/protocol';
import { generateItems } from '../../packages/protocol/src/item-fixtures';
import { FileBlobStore } from '../../apps/server/src/blobs/file-blob-store';
import { prepareRows } from '../../apps/server/src/ingest/item-rows';
import { insertNewItems, updateLastNum } from '../../apps/server/src/repositories/items.repository';
import { openServerDatabase, type RunningServer } from './server';

/**
 * Stores `count` items for a device the simulator registered, through the ingest's own row
 * preparation and the items repository (thousands of items through a phone's socket would take
 * minutes on a shared machine), numbered 1 (oldest) to `count` as the ingest numbers them.
 * It writes the server's database beside the server: call it while none of the account's devices
 * is connected. Returns the items' ids, oldest first.
 */
export async function seedItems(server: RunningServer, userId: string, deviceId: string, count: number): Promise<string[]> {
  const handle = await openServerDatabase(server);
  try {
    // Ids as the SDK makes them (UUIDs), so that a save's body has a real device's size.
    const deviceItems: DeviceItem[] = generateItems(count).map((item) => ({
      id: crypto.randomUUID(), type: item.type, createdAt: item.createdAt, ...(item.level ? { level: item.level } : {}), details: item.details,
    }) as DeviceItem);
    const { rows } = prepareRows(deviceItems, { userId, deviceId, blobs: new FileBlobStore(server.dataDir), receivedAt: Date.now(), keepParsed: false });
    for (let i = 0; i < rows.length; i += 1000) {
      await insertNewItems(handle.db, rows.slice(i, i + 1000).map((row, j) => ({ ...row.columns, num: i + j + 1 }))).execute();
    }
    await updateLastNum(handle.db, userId, deviceId, count).execute();
    return deviceItems.map((item) => item.id);
  } finally {
    await handle.close();
  }
}
