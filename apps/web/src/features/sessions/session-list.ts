import { useLayoutEffect, useState } from 'react';
import { createRequestList, type RequestList } from '../requests/store/request-list';
import type { SessionItems } from './session-items';
import { itemsInRange, type TimeRange } from './time-range';

/**
 * A saved session's items as a `RequestList` for the request list screen, filled as they stream
 * in: what arrived before it was made is in its store from the start (its history holds nothing
 * more), every later batch is added to its store as it lands (each item carries its `num`, so the
 * numbering holds while it loads). There is no live feed. Made once `ready` (the first batch is
 * in), so the screen never shows an empty session while it is still loading; made anew when the
 * time range changes. Made in a layout effect: the screen then mounts with its rows in the very
 * task that brought the first batch (a passive effect's update renders in a later task, and a
 * page of 5,000 items could be parsed in between; bench 51).
 */
export function useSessionList(deviceId: string, items: SessionItems, range: TimeRange | null, ready: boolean): RequestList | null {
  const [list, setList] = useState<RequestList | null>(null);
  useLayoutEffect(() => {
    if (!ready) return;
    // The items so far go in before the screen mounts, not as its history page a microtask after:
    // what the screen builds from a store it finds filled (the search bar's suggestions) is then
    // built in slices after the first paint instead of item by item before it (bench 51).
    const next = createRequestList(deviceId, async () => ({ items: [], nextBefore: null }));
    next.store.upsertMany(itemsInRange(items.items, range));
    const stopFollowing = items.onAdded((batch) => next.store.upsertMany(itemsInRange(batch, range)));
    void next.history.reload();
    setList(next);
    return () => {
      stopFollowing();
      next.dispose();
    };
  }, [deviceId, items, range, ready]);
  return ready ? list : null;
}
