import {
  CapturedItem, DELETE_REQUESTS_MAX, DeletedCountResponse, LOOKUP_REQUESTS_MAX, LookupRequestsResponse, REQUESTS_PAGE_DEFAULT, RequestsPage, SuccessBody,
} from '@spyglass/protocol';
import { api } from '../../lib/api';
import type { FetchHistoryPage } from './store/history-loader';

/** Pages of GET /v1/requests for one device, newest first (spec 001 §8: Failed to load requests). */
export function requestsPageFetcher(deviceId: string, defaultLimit = REQUESTS_PAGE_DEFAULT): FetchHistoryPage {
  return (before, signal, limit = defaultLimit) => api.get('/requests', RequestsPage, {
    query: { deviceId, before, limit },
    signal,
    errorMessage: 'Failed to load requests',
  });
}

/** The full item of a row, bodies and screenshot included (GET /v1/requests/{id}). */
export const loadDeviceItem = (id: string) => api.get(`/requests/${encodeURIComponent(id)}`, CapturedItem);

/**
 * Full items through a lookup endpoint (POST {...body, ids}), LOOKUP_REQUESTS_MAX ids a call; ids
 * the server no longer holds are left out.
 */
export function lookupLoader(path: string, body: Record<string, string> = {}) {
  return async (ids: readonly string[], signal?: AbortSignal): Promise<CapturedItem[]> => {
    const out: CapturedItem[] = [];
    for (let i = 0; i < ids.length; i += LOOKUP_REQUESTS_MAX) {
      const batch = { ...body, ids: ids.slice(i, i + LOOKUP_REQUESTS_MAX) };
      out.push(...(await api.post(path, batch, LookupRequestsResponse, { signal })).items);
    }
    return out;
  };
}

/** Full items of one device (POST /v1/requests/lookup). */
export const deviceItemsLoader = (deviceId: string) => lookupLoader('/requests/lookup', { deviceId });

/**
 * Deletes items on the server (DELETE /v1/requests/{id} for one, DELETE /v1/requests {ids} for
 * more, in batches the endpoint takes).
 */
export async function deleteItems(ids: readonly string[]): Promise<void> {
  if (ids.length === 1) {
    await api.delete(`/requests/${encodeURIComponent(ids[0]!)}`, SuccessBody);
    return;
  }
  for (let i = 0; i < ids.length; i += DELETE_REQUESTS_MAX) {
    await api.delete('/requests', DeletedCountResponse, { body: { ids: ids.slice(i, i + DELETE_REQUESTS_MAX) } });
  }
}

/** Deletes every item of a device (DELETE /v1/devices/{id}/requests). */
export const clearDeviceItems = (deviceId: string) => api.delete(`/devices/${encodeURIComponent(deviceId)}/requests`, DeletedCountResponse);
