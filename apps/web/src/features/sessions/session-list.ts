import type { CompactItem } from '@spyglass/protocol';
import { useEffect, useState } from 'react';
import { createRequestList, type RequestList } from '../requests/store/request-list';

/**
 * A saved session's items as a `RequestList` for the request list screen. The items are already
 * in memory (a session does not change), so its one "history page" is all of them; there is no
 * live feed.
 */
export function useSessionList(deviceId: string, items: readonly CompactItem[]): RequestList | null {
  const [list, setList] = useState<RequestList | null>(null);
  useEffect(() => {
    const next = createRequestList(deviceId, async () => ({ items: [...items], nextBefore: null }));
    void next.history.reload();
    setList(next);
    return () => next.dispose();
  }, [deviceId, items]);
  return list;
}
