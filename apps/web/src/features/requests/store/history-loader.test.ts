import { describe, expect, it } from 'vitest';
import type { CompactItem } from '@spyglass/protocol';
import { HistoryLoader, type HistoryPage } from './history-loader';
import { ListStore } from './list-store';
import { logItem, ManualHost } from './test-items';

const T0 = Date.UTC(2026, 10, 23, 10);

/** A device's stored items as the cursor API pages them: newest first, `before` a display number. */
function pagedApi(total: number, limit: number) {
  const items: CompactItem[] = Array.from({ length: total }, (_, i) => ({ ...logItem(`i${i + 1}`, T0 + i), num: i + 1 }));
  const calls: (number | null)[] = [];
  const pending: { resolve: (page: HistoryPage) => void; before: number | null }[] = [];
  const page = (before: number | null): HistoryPage => {
    const older = items.filter((item) => before === null || item.num < before).sort((a, b) => b.num - a.num).slice(0, limit);
    const last = older[older.length - 1];
    return { items: older, nextBefore: older.length === limit && last && last.num > 1 ? last.num : null };
  };
  return {
    calls,
    fetchPage: (before: number | null) => {
      calls.push(before);
      return new Promise<HistoryPage>((resolve) => pending.push({ resolve, before }));
    },
    /** Answers the oldest outstanding request. */
    answer: async () => {
      const next = pending.shift()!;
      next.resolve(page(next.before));
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

describe('HistoryLoader', () => {
  it('loads page after page with the cursor until the oldest item', async () => {
    const store = new ListStore({ host: new ManualHost() });
    const api = pagedApi(25, 10);
    const history = new HistoryLoader(store, api.fetchPage);
    const first = history.reload();
    expect(history.state).toMatchObject({ status: 'loading', initial: true });
    await api.answer();
    await first;
    expect(store.count).toBe(10);
    expect(history.state).toMatchObject({ status: 'idle', initial: false });

    // Scrolled near the end of a newest-first list: the next page is asked for once.
    history.onRangeChange({ start: 0, end: 10 }, store.count, true);
    history.onRangeChange({ start: 0, end: 10 }, store.count, true);
    await api.answer();
    history.onRangeChange({ start: 0, end: 20 }, store.count, true);
    await api.answer();
    expect(api.calls).toEqual([null, 16, 6]);
    expect(store.count).toBe(25);
    expect(store.rowAt(24)?.id).toBe('i1');
    expect(history.state.status).toBe('complete');
    history.onRangeChange({ start: 0, end: 25 }, store.count, true);
    expect(api.calls).toHaveLength(3);
  });

  it('keeps items deleted while a page was on its way deleted, and stops after a clear', async () => {
    const store = new ListStore({ host: new ManualHost() });
    const api = pagedApi(30, 10);
    const history = new HistoryLoader(store, api.fetchPage);
    void history.reload();
    store.deleteIds(['i30']);
    history.noteDeleted(['i30']);
    await api.answer();
    expect(store.get('i30')).toBeUndefined();
    expect(store.count).toBe(9);

    void history.loadOlder();
    store.clear();
    history.noteCleared();
    await api.answer();
    expect(store.count).toBe(0);
    expect(history.state.status).toBe('complete');
  });

  it('loads every page left in large pages, waiting for a page already on its way, until stopped', async () => {
    const store = new ListStore({ host: new ManualHost() });
    const limits: (number | undefined)[] = [];
    const items = Array.from({ length: 25 }, (_, i) => ({ ...logItem(`i${i + 1}`, T0 + i), num: i + 1 }));
    const history = new HistoryLoader(store, async (before, _signal, limit) => {
      limits.push(limit);
      const older = items.filter((item) => before === null || item.num < before).reverse().slice(0, limit ?? 5);
      const last = older[older.length - 1];
      return { items: older, nextBefore: last && last.num > 1 ? last.num : null };
    });
    const pages: number[] = [];
    history.observePages((page) => pages.push(page.items.length));
    const first = history.reload();
    const rest = history.loadRest(8, new AbortController().signal);
    await Promise.all([first, rest]);
    expect(limits).toEqual([undefined, 8, 8, 8]);
    expect(pages).toEqual([5, 8, 8, 4]);
    expect(store.count).toBe(25);
    expect(history.state.status).toBe('complete');

    const stopped = new AbortController();
    await history.reload();
    stopped.abort();
    await history.loadRest(8, stopped.signal);
    expect(store.count).toBe(25);
    expect(limits).toHaveLength(5);
    expect(history.state.status).toBe('idle');

    // Disposed while a page is on its way: the wait ends.
    const hanging = new HistoryLoader(new ListStore({ host: new ManualHost() }), (_before, signal) => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    }));
    const waiting = hanging.loadRest(8, new AbortController().signal);
    hanging.dispose();
    await waiting;
    expect(hanging.state.status).toBe('loading');
  });

  it('reports a failed page and tries again on the next call', async () => {
    const store = new ListStore({ host: new ManualHost() });
    let fail = true;
    const history = new HistoryLoader(store, async () => {
      if (fail) throw new Error('Failed to load requests');
      return { items: [logItem('a', T0)], nextBefore: null };
    });
    await history.reload();
    expect(history.state.status).toBe('error');
    expect((history.state.error as Error).message).toBe('Failed to load requests');
    fail = false;
    await history.loadOlder();
    expect(history.state.status).toBe('complete');
    expect(store.count).toBe(1);
  });
});
