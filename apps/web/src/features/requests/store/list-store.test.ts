import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactItem } from '@spyglass/protocol';
import { compareCreatedAt, orderFor, type ItemComparator } from './item-order';
import { ListStore, type ItemPredicate } from './list-store';
import { logItem, ManualHost } from './test-items';

const T0 = Date.UTC(2026, 10, 23, 10);
const ids = (store: ListStore) => [...store.rows()].map((item) => item.id);
const errorsOnly: ItemPredicate = (item) => item.level === 'error';
const infoOnly: ItemPredicate = (item) => item.level === 'info';
const compareId: ItemComparator = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function makeStore(options: { chunk?: number } = {}) {
  const host = new ManualHost();
  const store = new ListStore({ host, sliceMs: 0, chunk: options.chunk ?? 2 });
  return { host, store };
}

describe('ListStore writes', () => {
  it('shows items newest first and replaces an item with the same id', () => {
    const { store } = makeStore();
    store.upsertMany([logItem('a', T0 + 1), logItem('b', T0 + 3), logItem('c', T0 + 2)]);
    expect(ids(store)).toEqual(['b', 'c', 'a']);
    expect(store.count).toBe(3);

    store.upsertMany([logItem('c', T0 + 2, { message: 'changed' })]);
    expect(store.totalCount).toBe(3);
    expect(ids(store)).toEqual(['b', 'c', 'a']);
    expect(store.get('c')?.details).toEqual({ message: 'changed' });

    // A changed sort key moves the item.
    store.upsertMany([logItem('a', T0 + 9)]);
    expect(ids(store)).toEqual(['a', 'b', 'c']);
    expect(store.indexOfId('c')).toBe(2);
    expect(store.rowAt(0)?.id).toBe('a');
    expect(store.rowAt(3)).toBeUndefined();
  });

  it('keeps arrival order among items the comparator finds equal, newest first in the descending view', () => {
    const host = new ManualHost();
    const byTimeOnly: ItemComparator = (a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);
    const store = new ListStore({ host, compare: byTimeOnly });
    store.upsertMany([logItem('b', T0), logItem('c', T0)]);
    store.upsertMany([logItem('a', T0)]);
    expect(ids(store)).toEqual(['a', 'c', 'b']);
    store.setOrder(byTimeOnly, false);
    expect(ids(store)).toEqual(['b', 'c', 'a']);
  });

  it('orders by the protocol comparators of the table columns', () => {
    const { host, store } = makeStore();
    store.upsertMany([{ ...logItem('x', T0 + 2), num: 2 }, { ...logItem('y', T0 + 1), num: 10 }, { ...logItem('z', T0 + 3), num: 1 }]);
    expect(ids(store)).toEqual(['z', 'x', 'y']);
    const byNum = orderFor({ column: 'id', direction: 'asc' });
    expect(orderFor({ column: 'id', direction: 'desc' }).compare).toBe(byNum.compare);
    store.setOrder(byNum.compare, byNum.descending);
    host.runAll();
    expect(ids(store)).toEqual(['z', 'x', 'y']);
    store.setOrder(byNum.compare, true);
    expect(ids(store)).toEqual(['y', 'x', 'z']);
  });

  it('tells a slot observer about replaced and freed slots, and passes slots to the filter', () => {
    const invalidated: number[] = [];
    let cleared = 0;
    const seen: number[] = [];
    const store = new ListStore({
      host: new ManualHost(),
      filter: (_item, slot) => (seen.push(slot), true),
      slotObserver: { invalidate: (slot) => invalidated.push(slot), clear: () => cleared++ },
    });
    store.upsertMany([logItem('a', T0), logItem('b', T0 + 1)]);
    expect(seen).toEqual([0, 1]);
    store.upsertMany([logItem('b', T0 + 1)]);
    store.deleteIds(['a']);
    expect(invalidated).toEqual([1, 0]);
    store.upsertMany([logItem('c', T0 + 2)]);
    expect(seen).toEqual([0, 1, 1, 0]);
    store.clear();
    expect(cleared).toBe(1);
  });

  it('writes each new or replacing item to slot observers before the filter sees it', () => {
    const log: string[] = [];
    const store = new ListStore({
      host: new ManualHost(),
      filter: (item, slot) => (log.push(`filter ${item.id}@${slot}`), true),
      slotObserver: {
        written: (slot, item) => log.push(`written ${item.id}:${item.level}@${slot}`),
        invalidate: (slot) => log.push(`invalidate ${slot}`),
        clear: () => log.push('clear'),
      },
    });
    store.upsertMany([logItem('a', T0), logItem('b', T0 + 1)]);
    store.upsertMany([logItem('a', T0, { level: 'error' })]);
    store.deleteIds(['b']);
    store.upsertMany([logItem('c', T0 + 2)]);
    expect(log).toEqual([
      'written a:info@0', 'filter a@0', 'written b:info@1', 'filter b@1',
      'invalidate 0', 'written a:error@0', 'filter a@0',
      'invalidate 1',
      'written c:info@1', 'filter c@1',
    ]);
  });

  it('tells item observers attached later what came and went, a replaced item as added and removed', () => {
    const store = new ListStore({ host: new ManualHost() });
    store.upsertMany([logItem('a', T0)]);
    const log: string[] = [];
    const slots: number[] = [];
    const stopItems = store.observeItems({
      added: (items) => log.push(`+${items.map((i) => `${i.id}:${i.level}`).join(',')}`),
      removed: (items) => log.push(`-${items.map((i) => `${i.id}:${i.level}`).join(',')}`),
      cleared: () => log.push('clear'),
    });
    store.observeSlots({ invalidate: (slot) => slots.push(slot), clear: () => slots.push(-1) });
    expect([...store.allItems()].map((i) => i.id)).toEqual(['a']);
    store.upsertMany([logItem('b', T0 + 1), logItem('b', T0 + 1, { level: 'error' })]);
    store.upsertMany([logItem('a', T0, { level: 'debug' })]);
    store.deleteIds(['b', 'nope']);
    store.clear();
    expect(log).toEqual(['+b:info,b:error', '-b:info', '+a:debug', '-a:info', '-b:error', 'clear']);
    expect(slots).toEqual([1, 0, 1, -1]);
    stopItems();
    store.upsertMany([logItem('c', T0)]);
    expect(log).toHaveLength(6);
  });

  it('deletes a few or many ids, ignores unknown ones and reuses the freed slots', () => {
    const { store } = makeStore();
    store.upsertMany(Array.from({ length: 100 }, (_, i) => logItem(`i${i}`, T0 + i)));
    store.deleteIds(['i5', 'i7', 'nope', 'i5']);
    expect(store.count).toBe(98);
    expect(store.get('i5')).toBeUndefined();
    store.deleteIds(Array.from({ length: 50 }, (_, i) => `i${i * 2}`));
    expect(store.totalCount).toBe(48);
    expect(ids(store)).toEqual(Array.from({ length: 50 }, (_, i) => `i${99 - i * 2}`).filter((id) => id !== 'i5' && id !== 'i7'));
    store.upsertMany([logItem('new', T0 + 50)]);
    expect(store.indexOfId('new')).toBe(ids(store).indexOf('new'));
    expect(store.indexOfId('new')).toBeGreaterThan(0);
  });

  it('clears everything and notifies once per batch', () => {
    const { store } = makeStore();
    let notified = 0;
    store.subscribe(() => notified++);
    store.batch(() => {
      store.upsertMany([logItem('a', T0), logItem('b', T0 + 1)]);
      store.deleteIds(['a']);
    });
    expect(notified).toBe(1);
    store.clear();
    expect(store.count).toBe(0);
    expect(store.totalCount).toBe(0);
    expect(store.rowAt(0)).toBeUndefined();
    expect(notified).toBe(2);
  });

  it('applies the filter to new and changed items only as they arrive', () => {
    let calls = 0;
    const counting: ItemPredicate = (item) => {
      calls++;
      return item.level === 'error';
    };
    const host = new ManualHost();
    const store = new ListStore({ host, filter: counting });
    store.upsertMany([logItem('a', T0, { level: 'error' }), logItem('b', T0 + 1)]);
    store.upsertMany([logItem('c', T0 + 2, { level: 'error' })]);
    expect(calls).toBe(3);
    expect(ids(store)).toEqual(['c', 'a']);
    expect(store.totalCount).toBe(3);
    // An update that changes the filter's answer shows or hides the row in place.
    store.upsertMany([logItem('b', T0 + 1, { level: 'error' }), logItem('a', T0)]);
    expect(ids(store)).toEqual(['c', 'b']);
  });
});

describe('ListStore incremental order', () => {
  type Op =
    | { kind: 'upsert'; items: { id: number; t: number; error: boolean }[] }
    | { kind: 'delete'; ids: number[] }
    | { kind: 'clear' }
    | { kind: 'filter'; filter: 0 | 1 | 2 }
    | { kind: 'order'; byId: boolean; descending: boolean }
    | { kind: 'slices'; count: number };

  const filters = [null, errorsOnly, infoOnly] as const;
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('upsert' as const), items: fc.array(fc.record({ id: fc.nat(39), t: fc.nat(15), error: fc.boolean() }), { maxLength: 12 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), ids: fc.array(fc.nat(39), { maxLength: 40 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('filter' as const), filter: fc.constantFrom(0 as const, 1 as const, 2 as const) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('order' as const), byId: fc.boolean(), descending: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('slices' as const), count: fc.nat(6) }) },
  );

  it('equals a full filter and sort of the held items after any sequence of writes', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const { host, store } = makeStore({ chunk: 3 });
      const model = new Map<string, { item: CompactItem; seq: number }>();
      let seq = 0;
      let filter: ItemPredicate | null = null;
      let compare = compareCreatedAt;
      let descending = true;
      for (const o of ops) {
        if (o.kind === 'upsert') {
          const batch = o.items.map((x) => logItem(`i${x.id}`, T0 + x.t, { level: x.error ? 'error' : 'info' }));
          for (const item of batch) model.set(item.id, { item, seq: model.get(item.id)?.seq ?? seq++ });
          store.upsertMany(batch);
        } else if (o.kind === 'delete') {
          for (const id of o.ids) model.delete(`i${id}`);
          store.deleteIds(o.ids.map((id) => `i${id}`));
        } else if (o.kind === 'clear') {
          model.clear();
          store.clear();
        } else if (o.kind === 'filter') {
          filter = filters[o.filter];
          store.setFilter(filter);
        } else if (o.kind === 'order') {
          compare = o.byId ? compareId : compareCreatedAt;
          descending = o.descending;
          store.setOrder(compare, descending);
        } else {
          for (let i = 0; i < o.count; i++) host.runNext();
        }
        // Whatever is in flight, the shown rows are real, distinct, held items.
        const shown = ids(store);
        expect(new Set(shown).size).toBe(shown.length);
        for (const id of shown) expect(model.has(id)).toBe(true);
      }
      host.runAll();
      const expected = [...model.values()]
        .filter(({ item }) => filter === null || filter(item, 0))
        .sort((a, b) => compare(a.item, b.item) || a.seq - b.seq)
        .map(({ item }) => item.id);
      if (descending) expected.reverse();
      expect(ids(store)).toEqual(expected);
      expect(store.count).toBe(expected.length);
      expect(store.totalCount).toBe(model.size);
      expect(store.isRecomputing).toBe(false);
    }), { numRuns: 300 });
  });
});

describe('ListStore recompute in slices', () => {
  it('re-filters in many slices, keeping the old view live until the result lands', () => {
    const { host, store } = makeStore({ chunk: 10 });
    store.upsertMany(Array.from({ length: 100 }, (_, i) => logItem(`i${i}`, T0 + i, { level: i % 4 === 0 ? 'error' : 'info' })));
    store.setFilter(errorsOnly);
    expect(store.isRecomputing).toBe(true);
    host.runNext();
    host.runNext();
    expect(store.count).toBe(100);
    // Writes during the job: a new error, a deleted error, an error turned info.
    store.upsertMany([logItem('late', T0 + 500, { level: 'error' }), logItem('i4', T0 + 4, { level: 'info' })]);
    store.deleteIds(['i8']);
    expect(store.count).toBe(100);
    const slices = host.runAll();
    expect(slices).toBeGreaterThan(5);
    expect(store.isRecomputing).toBe(false);
    const expected = ['late', ...Array.from({ length: 25 }, (_, i) => `i${96 - i * 4}`).filter((id) => id !== 'i4' && id !== 'i8')];
    expect(ids(store)).toEqual(expected);
  });

  it('drops a result overtaken by a newer filter', () => {
    const { host, store } = makeStore({ chunk: 5 });
    store.upsertMany(Array.from({ length: 60 }, (_, i) => logItem(`i${i}`, T0 + i, { level: i < 30 ? 'error' : 'info' })));
    store.setFilter(errorsOnly);
    const staleSlice = host.tasks[0]!;
    host.runNext();
    const versionBefore = store.version;
    store.setFilter(infoOnly);
    // The first job's slices may still be called (a message already in flight): they do nothing.
    for (let i = 0; i < 50; i++) staleSlice();
    expect(store.count).toBe(60);
    expect(store.version).toBe(versionBefore + 1);
    host.runAll();
    expect(ids(store)).toEqual(Array.from({ length: 30 }, (_, i) => `i${59 - i}`));
  });

  it('re-sorts a large list in slices to the same order as a full sort', () => {
    const { host, store } = makeStore({ chunk: 64 });
    const items = Array.from({ length: 5000 }, (_, i) => logItem(`id-${(i * 7919) % 5000}`, T0 + ((i * 104729) % 997)));
    store.upsertMany(items);
    store.setOrder(compareId, false);
    expect(host.runAll()).toBeGreaterThan(100);
    expect(ids(store)).toEqual(items.map((item) => item.id).sort());
  });

  it('flips the direction without recomputing', () => {
    const { host, store } = makeStore();
    store.upsertMany([logItem('a', T0), logItem('b', T0 + 1)]);
    store.setOrder(compareCreatedAt, false);
    expect(host.tasks).toHaveLength(0);
    expect(ids(store)).toEqual(['a', 'b']);
  });
});

describe('ListStore selection (spec 001 §4)', () => {
  function fiveRows() {
    const { host, store } = makeStore();
    // Shown newest first: e d c b a.
    store.upsertMany(['a', 'b', 'c', 'd', 'e'].map((id, i) => logItem(id, T0 + i, { level: id === 'b' ? 'error' : 'info' })));
    return { host, store };
  }
  const selectedIds = (store: ListStore) => store.selectedItems().map((item) => item.id);

  it('selects one row, toggles with Ctrl/Meta and selects a Shift range from where it started', () => {
    const { store } = fiveRows();
    store.selectOnly(1);
    expect(selectedIds(store)).toEqual(['d']);
    store.toggleAt(3);
    expect(selectedIds(store)).toEqual(['d', 'b']);
    store.toggleAt(3);
    expect(selectedIds(store)).toEqual(['d']);
    store.selectRangeTo(3);
    expect(selectedIds(store)).toEqual(['d', 'c', 'b']);
    store.selectRangeTo(0);
    expect(selectedIds(store)).toEqual(['e', 'd']);
    expect(store.isSelectedAt(0)).toBe(true);
    expect(store.isSelected('c')).toBe(false);
  });

  it('selects all shown rows, moves a single selection with the arrows and clears', () => {
    const { store } = fiveRows();
    store.selectAll();
    expect(store.selectionCount).toBe(5);
    expect(store.moveSelection(1)).toBe(-1);
    store.selectOnly(3);
    expect(store.moveSelection(1)).toBe(4);
    expect(store.moveSelection(1)).toBe(4);
    expect(store.moveSelection(-2)).toBe(2);
    expect(store.singleSelected?.id).toBe('c');
    store.clearSelection();
    expect(store.selectionCount).toBe(0);
  });

  it('auto-selects a new item when exactly one non-mocked item was selected and it was the newest shown', () => {
    const { host, store } = makeStore();
    // Display numbers in arrival order; shown newest first: e d c b a.
    store.upsertMany(['a', 'b', 'c', 'd', 'e'].map((id, i) => logItem(id, T0 + i, { num: i + 1, level: id === 'b' ? 'error' : 'info' })));
    const select = (id: string) => store.selectOnly(store.indexOfId(id));
    select('e');
    store.upsertMany([logItem('f', T0 + 10, { num: 6 })]);
    expect(selectedIds(store)).toEqual(['f']);
    // An update of a held item is not a new item.
    store.upsertMany([logItem('a', T0, { num: 1 })]);
    expect(selectedIds(store)).toEqual(['f']);
    // An older row being read (or about to be mocked) stays selected while new items arrive.
    select('c');
    store.upsertMany([logItem('g', T0 + 11, { num: 7 })]);
    expect(selectedIds(store)).toEqual(['c']);
    // Two rows selected: nothing follows.
    select('g');
    store.toggleAt(store.indexOfId('f'));
    store.upsertMany([logItem('h', T0 + 12, { num: 8 })]);
    expect(selectedIds(store)).toEqual(['g', 'f']);
    // The newest selected follows to a mocked item, which then stays selected.
    select('h');
    store.upsertMany([logItem('i', T0 + 13, { num: 9, isMocked: true }), logItem('j', T0 + 14, { num: 10, isMocked: true })]);
    expect(selectedIds(store)).toEqual(['j']);
    store.upsertMany([logItem('k', T0 + 15, { num: 11 })]);
    expect(selectedIds(store)).toEqual(['j']);
    // Once the newer items are deleted, the newest left follows again.
    select('h');
    store.deleteIds(['i', 'j', 'k']);
    store.upsertMany([logItem('l', T0 + 16, { num: 12 })]);
    expect(selectedIds(store)).toEqual(['l']);
    // Under a filter, the newest item it shows follows, though newer items are hidden.
    store.setFilter(errorsOnly);
    host.runAll();
    select('b');
    store.upsertMany([logItem('m', T0 + 17, { num: 13 }), logItem('n', T0 + 18, { num: 14, level: 'error' })]);
    expect(selectedIds(store)).toEqual(['n']);
  });

  it('forgets deleted items and items a new filter hides', () => {
    const { host, store } = fiveRows();
    store.selectAll();
    store.deleteIds(['e']);
    expect(store.selectionCount).toBe(4);
    store.setFilter(errorsOnly);
    host.runAll();
    expect(selectedIds(store)).toEqual(['b']);
    store.clear();
    expect(store.selectionCount).toBe(0);
  });
});
