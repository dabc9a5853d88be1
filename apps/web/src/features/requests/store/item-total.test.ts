import { describe, expect, it } from 'vitest';
import type { CompactItem, ViewerOutbound } from '@spyglass/protocol';
import type { HistoryPage } from './history-loader';
import { createRequestList } from './request-list';
import { logItem, ManualHost } from './test-items';

const T0 = Date.UTC(2026, 10, 26, 9);
const item = (num: number): CompactItem => ({ ...logItem(`i${num}`, T0 + num), num });

describe('ItemTotal (the stats bar\'s Total)', () => {
  it('is the server\'s count before every page is loaded, kept live, and the held items once they are', async () => {
    // Stored: 1..10. The newest page is 3 items with the server's count; older pages carry none.
    const stored = Array.from({ length: 10 }, (_, i) => item(i + 1));
    const list = createRequestList('device-1', async (before): Promise<HistoryPage> => {
      const older = stored.filter((i) => before === null || i.num < before).reverse().slice(0, 3);
      const nextBefore = older.length === 3 && older[2]!.num > 1 ? older[2]!.num : null;
      return before === null ? { items: older, nextBefore, total: 10 } : { items: older, nextBefore };
    }, { host: new ManualHost(), requestFrame: () => () => {} });
    const live = (message: ViewerOutbound) => {
      list.feed.push(message);
      list.feed.flush();
    };
    let notified = 0;
    list.total.subscribe(() => notified++);

    // A live item stored after the server counted, landing before the newest page does (the
    // subscription comes first), is added once.
    live({ type: 'new_request', deviceId: 'device-1', request: item(11) });
    expect(list.total.value).toBe(1);
    await list.history.reload();
    expect(list.store.totalCount).toBe(4);
    expect(list.total.value).toBe(11);

    live({ type: 'new_requests', deviceId: 'device-1', requests: [item(12), item(13)] });
    expect(list.total.value).toBe(13);
    // An old item sent again (its number kept) lands in the list but was counted already.
    live({ type: 'new_request', deviceId: 'device-1', request: { ...item(2), level: 'error' } });
    expect(list.store.totalCount).toBe(7);
    expect(list.total.value).toBe(13);

    // Deletions: an old item not loaded, and a live one.
    notified = 0;
    live({ type: 'requests_deleted', deviceId: 'device-1', ids: ['i5', 'i13'] });
    expect(list.total.value).toBe(11);
    expect(notified).toBeGreaterThan(0);
    stored.splice(stored.findIndex((i) => i.num === 5), 1);

    // Every page loaded: the list holds them all (1-4, 6-12).
    while (list.history.state.status !== 'complete') await list.history.loadOlder();
    expect(list.store.totalCount).toBe(11);
    expect(list.total.value).toBe(11);

    live({ type: 'requests_cleared', deviceId: 'device-1' });
    expect(list.total.value).toBe(0);
  });

  it('starts over with the newest page after a resync', async () => {
    let count = 500;
    const list = createRequestList('device-1', async () => ({ items: [item(count)], nextBefore: count - 1, total: count }),
      { host: new ManualHost(), requestFrame: () => () => {} });
    await list.history.reload();
    expect(list.total.value).toBe(500);
    count = 800;
    list.feed.push({ type: 'resync', deviceId: 'device-1', reason: 'slow' });
    list.feed.flush();
    expect(list.total.value).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(list.total.value).toBe(800);
  });

  it('is the held items for a list whose pages carry no count (a saved session)', async () => {
    const list = createRequestList('device-1', async () => ({ items: [item(1), item(2)], nextBefore: null }), { host: new ManualHost() });
    await list.history.reload();
    expect(list.total.value).toBe(2);
  });
});
