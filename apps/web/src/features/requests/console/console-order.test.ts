import { describe, expect, it } from 'vitest';
import { ListStore } from '../store/list-store';
import { orderFor } from '../store/item-order';
import { logItem, ManualHost } from '../store/test-items';
import { applyConsoleOrder, consoleToStoreIndex } from './console-order';

const T0 = Date.UTC(2026, 10, 23, 10);

/** The console's rows: the store read from the oldest end. */
function consoleIds(store: ListStore): string[] {
  return Array.from({ length: store.count }, (_, i) => store.rowAt(consoleToStoreIndex(i, store.count, store.isDescending))!.id);
}

function storeWithItems() {
  const host = new ManualHost();
  const store = new ListStore({ host, sliceMs: 0, chunk: 2 });
  store.upsertMany([{ ...logItem('b', T0 + 2), num: 1 }, { ...logItem('a', T0 + 1), num: 3 }, { ...logItem('c', T0 + 3), num: 2 }]);
  return { host, store };
}

describe('the console order', () => {
  it('reads the newest-first store from its oldest end, without re-sorting', () => {
    const { store } = storeWithItems();
    expect(applyConsoleOrder(store)).toBeNull();
    expect(store.isRecomputing).toBe(false);
    expect(consoleIds(store)).toEqual(['a', 'b', 'c']);
    store.setOrder(store.order, false);
    expect(consoleIds(store)).toEqual(['a', 'b', 'c']);
  });

  it('puts createdAt back over another column of the table, and that column back when it goes', () => {
    const { host, store } = storeWithItems();
    const byId = orderFor({ column: 'id', direction: 'desc' });
    store.setOrder(byId.compare, byId.descending);
    host.runAll();
    const restore = applyConsoleOrder(store)!;
    host.runAll();
    expect(consoleIds(store)).toEqual(['a', 'b', 'c']);
    restore();
    host.runAll();
    expect([...store.rows()].map((item) => item.id)).toEqual(['a', 'c', 'b']);
  });
});
