import { DEFAULT_FEATURE_TOGGLES, SAMPLE_DEVICE_ID, SAMPLE_DEVICE_INFO, sampleItems, type DeviceItem } from '@spyglass/protocol';
import { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { deleteDevice, type DeviceRow } from '../repositories/devices.repository';
import type { NewItemRow } from '../repositories/item-columns';
import { insertSampleDevice } from '../repositories/sample-device.repository';

export interface SampleDeps {
  db: Db;
  blobs: BlobStore;
  now(): number;
}

/**
 * One sample item as its row. The sample's bodies are small, so they stay on the row; the
 * screenshot's image goes to the blob store like a device's. Sample items count no traffic.
 */
async function sampleRow(deps: SampleDeps, userId: string, item: DeviceItem, num: number, now: number): Promise<NewItemRow> {
  const createdAt = Date.parse(item.createdAt);
  const row: NewItemRow = {
    user_id: userId, device_id: SAMPLE_DEVICE_ID, id: item.id, num, type: item.type, level: item.level ?? null,
    method: null, url: null, status: null, duration: null, size: 0, sent_at: item.sentAt ? Date.parse(item.sentAt) : null,
    created_at: createdAt, updated_at: now, tags: '[]', notes: null, is_mocked: 0, mock: null, mock_data: null, meta_data: null,
    details: '', request_body: null, request_body_blob: null, response_body: null, response_body_blob: null, image_blob: null,
  };
  let details: unknown = item.details;
  let bodyBytes = 0;
  if (item.type === 'network') {
    const { request, response, timings } = item.details;
    Object.assign(row, { method: request.method, url: request.url, status: response?.statusCode ?? null, duration: timings?.total ?? null });
    row.request_body = request.body ?? null;
    row.response_body = response?.body ?? null;
    bodyBytes = (request.body?.length ?? 0) + (response?.body?.length ?? 0);
    details = { ...item.details, request: { ...request, body: undefined }, response: response && { ...response, body: undefined } };
  } else if (item.type === 'screenshot' && item.details.image) {
    row.image_blob = BlobStore.key(userId, SAMPLE_DEVICE_ID, item.id, 'image');
    await deps.blobs.put(row.image_blob, item.details.image);
    bodyBytes = item.details.image.length;
    details = { ...item.details, image: undefined };
  }
  row.details = JSON.stringify(details);
  row.size = row.details.length + bodyBytes;
  return row;
}

/**
 * Gives an account the sample device `1-demo` with its 32 items (spec 001 §9, spec 002 'Sample
 * data'), dated just before now. Nothing happens when the account has it already.
 */
export async function addSampleDevice(deps: SampleDeps, userId: string): Promise<void> {
  const now = deps.now();
  const items = sampleItems(now);
  const rows = await Promise.all(items.map((item, index) => sampleRow(deps, userId, item, index + 1, now)));
  const device: DeviceRow = {
    id: SAMPLE_DEVICE_ID, user_id: userId, platform: SAMPLE_DEVICE_INFO.platform, info: JSON.stringify(SAMPLE_DEVICE_INFO),
    name_override: null, group_override: null, feature_toggles: JSON.stringify(DEFAULT_FEATURE_TOGGLES), breakpoint_enabled: 0,
    online: 0, last_seen: now, last_num: rows.length, created_at: now, updated_at: now,
  };
  // The screenshot's blob key is the same each time, so a second call only rewrites the same image.
  await insertSampleDevice(deps.db, device, rows);
}

/** Takes the sample out of the way (the account's first real device connected): true when there was one. */
export function removeSampleDevice(deps: SampleDeps, userId: string): Promise<boolean> {
  return deleteDevice(deps.db, deps.blobs, userId, SAMPLE_DEVICE_ID);
}
