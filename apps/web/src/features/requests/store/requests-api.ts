import { REQUESTS_PAGE_DEFAULT, RequestsPage } from '@spyglass/protocol';
import { api } from '../../../lib/api';
import type { FetchHistoryPage } from './history-loader';

/** Pages of GET /v1/requests for one device, newest first (spec 001 §8: Failed to load requests). */
export function requestsPageFetcher(deviceId: string, limit = REQUESTS_PAGE_DEFAULT): FetchHistoryPage {
  return (before, signal) => api.get('/requests', RequestsPage, {
    query: { deviceId, before, limit },
    signal,
    errorMessage: 'Failed to load requests',
  });
}
