import { describe, expect, it } from 'vitest';
import { REQUESTS_PAGE_MAX, SESSION_MAX_ITEMS, type CompactItem, type ItemPredicate } from '@spyglass/protocol';
import type { HistoryPage } from '../requests/store/history-loader';
import { createRequestList } from '../requests/store/request-list';
import { logItem, ManualHost } from '../requests/store/test-items';
import { idsToSave, TooManyToSave, type LoadProgress } from './ids-to-save';

const T0 = Date.UTC(2026, 10, 26, 9);

/**
 * A device's stored items (num 1 = oldest) behind the cursor API: pages of `limit` (the default
 * one's 3), the newest page with the server's count. `hold` keeps answers back until `release`.
 */
function device(count: number, level: (num: number) => string = () => 'info') {
  const items: CompactItem[] = Array.from({ length: count }, (_, i) => ({ ...logItem(`i${i + 1}`, T0 + i, { level: level(i + 1) }), num: i + 1 }));
  const limits: (number | undefined)[] = [];
  let held: (() => void)[] | null = null;
  const fetchPage = async (before: number | null, _signal: AbortSignal, limit?: number): Promise<HistoryPage> => {
    limits.push(limit);
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    const size = limit ?? 3;
    const older = items.filter((item) => before === null || item.num < before).reverse().slice(0, size);
    const last = older[older.length - 1];
    const nextBefore = older.length === size && last && last.num > 1 ? last.num : null;
    return before === null ? { items: older, nextBefore, total: items.length } : { items: older, nextBefore };
  };
  return {
    limits,
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const resolve of waiting) resolve();
    },
    list: (filter: ItemPredicate | null = null) => createRequestList('device-1', fetchPage, { host: new ManualHost(), filter, requestFrame: () => () => {} }),
  };
}

const signal = () => new AbortController().signal;

describe('what Save Session saves', () => {
  it('saves every item the list shows, filter applied, loading the pages not loaded yet', async () => {
    const api = device(20, (num) => (num % 2 === 0 ? 'error' : 'info'));
    const list = api.list((item) => item.level === 'error');
    await list.history.reload();
    expect(list.store.totalCount).toBe(3);
    expect(list.total.value).toBe(20);

    const progress: LoadProgress[] = [];
    const ids = await idsToSave(list, { signal: signal(), onProgress: (p) => progress.push(p) });
    expect(ids?.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `i${(i + 1) * 2}`).sort());
    // The rest in pages as large as the API gives, each one reported.
    expect(api.limits).toEqual([undefined, REQUESTS_PAGE_MAX]);
    expect(progress[0]).toEqual({ loaded: 3, total: 20 });
    expect(progress.at(-1)).toEqual({ loaded: 20, total: 20 });
    expect(list.history.state.status).toBe('complete');
  });

  it('saves only the selection when there is one, loading nothing', async () => {
    const api = device(20);
    const list = api.list();
    await list.history.reload();
    list.store.selectOnly(list.store.indexOfId('i19'));
    expect(await idsToSave(list, { signal: signal() })).toEqual(['i19']);
    expect(api.limits).toEqual([undefined]);
  });

  it('has nothing to save in an empty list', async () => {
    const list = device(0).list();
    await list.history.reload();
    expect(await idsToSave(list, { signal: signal() })).toEqual([]);
  });

  it('stops at once when cancelled; the page on its way still lands in the list', async () => {
    const api = device(20);
    const list = api.list();
    await list.history.reload();
    api.hold();
    const controller = new AbortController();
    const saving = idsToSave(list, { signal: controller.signal });
    controller.abort();
    expect(await saving).toBeNull();
    api.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(list.store.totalCount).toBe(20);
    expect(api.limits).toEqual([undefined, REQUESTS_PAGE_MAX]);
  });

  it('reports a page that failed', async () => {
    let fail = false;
    const list = createRequestList('device-1', async (before) => {
      if (fail) throw new Error('Failed to load requests');
      return { items: [{ ...logItem('newest', T0), num: 9 }], nextBefore: before === null ? 9 : null, total: 9 };
    }, { host: new ManualHost(), requestFrame: () => () => {} });
    await list.history.reload();
    fail = true;
    await expect(idsToSave(list, { signal: signal() })).rejects.toThrow('Failed to load requests');
  });

  it('refuses more than a session holds: unfiltered by the device\'s count, filtered as soon as the shown rows pass it', async () => {
    const api = device(SESSION_MAX_ITEMS + REQUESTS_PAGE_MAX * 3);
    const unfiltered = api.list();
    await unfiltered.history.reload();
    await expect(idsToSave(unfiltered, { signal: signal() })).rejects.toBeInstanceOf(TooManyToSave);
    expect(api.limits).toEqual([undefined]);

    const filtered = api.list((item) => item.level === 'info');
    await filtered.history.reload();
    await expect(idsToSave(filtered, { signal: signal() })).rejects.toBeInstanceOf(TooManyToSave);
    expect(filtered.history.state.status).toBe('idle');
    expect(filtered.store.totalCount).toBeGreaterThan(SESSION_MAX_ITEMS);
    expect(filtered.store.totalCount).toBeLessThan(SESSION_MAX_ITEMS + REQUESTS_PAGE_MAX * 2);
  });
});
