import { describe, expect, it } from 'vitest';
import type { ViewerOutbound } from '@spyglass/protocol';
import type { HistoryPage } from './history-loader';
import { createRequestList } from './request-list';
import { logItem, ManualHost } from './test-items';

const T0 = Date.UTC(2026, 10, 23, 10);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createRequestList', () => {
  it('wires live messages, history pages and the new-row marks together', async () => {
    const asked: (number | null)[] = [];
    const pages: Record<string, HistoryPage> = {
      null: { items: [{ ...logItem('old-2', T0 - 2), num: 2 }, { ...logItem('old-1', T0 - 3), num: 1 }], nextBefore: null },
    };
    const list = createRequestList('device-1', async (before) => {
      asked.push(before);
      return pages[String(before)]!;
    }, { host: new ManualHost(), requestFrame: () => () => {} });
    const live = (message: ViewerOutbound) => {
      list.feed.push(message);
      list.feed.flush();
    };

    await list.history.reload();
    live({ type: 'new_request', deviceId: 'device-1', request: { ...logItem('live-3', T0), num: 3 } });
    expect([...list.store.rows()].map((item) => item.id)).toEqual(['live-3', 'old-2', 'old-1']);
    expect(list.newRows.take('live-3')).toBe(true);
    expect(list.newRows.take('old-2')).toBe(false);

    // The server dropped our backlog: start over from the newest page.
    live({ type: 'resync', deviceId: 'device-1', reason: 'slow' });
    await tick();
    expect(asked).toEqual([null, null]);
    expect(list.store.count).toBe(2);

    live({ type: 'requests_cleared', deviceId: 'device-1' });
    expect(list.store.count).toBe(0);
    expect(list.history.state.status).toBe('complete');

    list.dispose();
    list.feed.push({ type: 'new_request', deviceId: 'device-1', request: logItem('late', T0 + 1) });
    expect(list.store.count).toBe(0);
  });
});
