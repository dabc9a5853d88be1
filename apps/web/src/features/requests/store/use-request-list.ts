import { useEffect, useState } from 'react';
import type { ViewerOutbound } from '@spyglass/protocol';
import type { FetchHistoryPage } from './history-loader';
import { createRequestList, type RequestList } from './request-list';
import { requestsPageFetcher } from '../requests.api';

/** The part of the tab's live connection (lib/live.ts) the request list needs. */
export interface LiveSource {
  subscribe(listener: (message: ViewerOutbound) => void): () => void;
  /** Asks the server for this device's item messages until the answered function is called. */
  watchDevice(deviceId: string): () => void;
  /** Resolves once the subscriptions asked for before are live on the server; rejects when not connected. */
  ping(): Promise<void>;
}

/**
 * The request list of a device for as long as the screen shows it: live messages are taken
 * before the first page is asked for, so that nothing arriving meanwhile is missed (the page and
 * the live items merge by id).
 */
export function useRequestList(
  deviceId: string | null,
  live: LiveSource,
  fetchPage: (deviceId: string) => FetchHistoryPage = requestsPageFetcher,
): RequestList | null {
  const [list, setList] = useState<RequestList | null>(null);
  useEffect(() => {
    if (deviceId === null) {
      setList(null);
      return;
    }
    const next = createRequestList(deviceId, fetchPage(deviceId));
    const unsubscribe = live.subscribe((message) => next.feed.push(message));
    const unwatch = live.watchDevice(deviceId);
    let disposed = false;
    // The first page is read once the server has the subscription live, so that no item committed
    // between that page and the subscription is missed. Not connected yet: the page is read now,
    // and the connection's first open tells watchers to resync.
    void live.ping().catch(() => undefined).then(() => {
      if (!disposed) void next.history.reload();
    });
    setList(next);
    return () => {
      disposed = true;
      unwatch();
      unsubscribe();
      next.dispose();
    };
  }, [deviceId, live, fetchPage]);
  return list?.deviceId === deviceId ? list : null;
}
