import { CapturedItem, DELETE_REQUESTS_MAX, DeletedCountResponse } from '@spyglass/protocol';
import { z } from 'zod';
import { api } from '../../../lib/api';

/** The full item of a row, bodies and screenshot included (GET /v1/requests/{id}). */
export const loadDeviceItem = (id: string) => api.get(`/requests/${encodeURIComponent(id)}`, CapturedItem);

const Success = z.object({ success: z.literal(true) });

/**
 * Deletes items on the server (DELETE /v1/requests/{id} for one, DELETE /v1/requests {ids} for
 * more, in batches the endpoint takes).
 */
export async function deleteItems(ids: readonly string[]): Promise<void> {
  if (ids.length === 1) {
    await api.delete(`/requests/${encodeURIComponent(ids[0]!)}`, Success);
    return;
  }
  for (let i = 0; i < ids.length; i += DELETE_REQUESTS_MAX) {
    await api.delete('/requests', DeletedCountResponse, { body: { ids: ids.slice(i, i + DELETE_REQUESTS_MAX) } });
  }
}

/** Deletes every item of a device (DELETE /v1/devices/{id}/requests). */
export const clearDeviceItems = (deviceId: string) => api.delete(`/devices/${encodeURIComponent(deviceId)}/requests`, DeletedCountResponse);
