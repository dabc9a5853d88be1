import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventItem, generateItems, logItem, networkItem } from './item-fixtures';
import type { CompactItem } from './items';
import {
  DEFAULT_ITEM_SORT, ITEM_SORT_COLUMNS, isSortColumn, itemComparator, ItemSort, sortedIndexes, sortItems, toggleSort,
} from './sort';

const nums = (items: CompactItem[]) => items.map((i) => i.num);

describe('sort state (spec 001 §4)', () => {
  it('defaults to createdAt descending; a click sorts ascending, again toggles', () => {
    expect(DEFAULT_ITEM_SORT).toEqual({ column: 'createdAt', direction: 'desc' });
    const byId = toggleSort(DEFAULT_ITEM_SORT, 'id');
    expect(byId).toEqual({ column: 'id', direction: 'asc' });
    expect(toggleSort(byId, 'id')).toEqual({ column: 'id', direction: 'desc' });
    expect(toggleSort(toggleSort(byId, 'id'), 'id')).toEqual(byId);
    expect(toggleSort(DEFAULT_ITEM_SORT, 'createdAt')).toEqual({ column: 'createdAt', direction: 'asc' });
    expect(isSortColumn('level')).toBe(true);
    expect(isSortColumn('nope')).toBe(false);
    expect(ItemSort.safeParse({ column: 'id', direction: 'up' }).success).toBe(false);
  });
});

describe('comparators', () => {
  it('puts the newest first by default, ties by row number, any ISO form', () => {
    const items = [
      logItem({ num: 1, createdAt: '2026-11-23T10:00:00.000Z' }),
      logItem({ num: 2, createdAt: '2026-11-23T12:30:00.000+02:00' }),
      logItem({ num: 3, createdAt: '2026-11-23T10:00:00.000Z' }),
      logItem({ num: 4, createdAt: '2026-11-23T11:00:00.000Z' }),
    ];
    expect(nums(sortItems(items))).toEqual([4, 2, 3, 1]);
    expect(nums([...items].sort(itemComparator(DEFAULT_ITEM_SORT)))).toEqual([4, 2, 3, 1]);
  });

  it('sorts the id column numerically', () => {
    const items = [logItem({ num: 10 }), logItem({ num: 9 }), logItem({ num: 100 }), logItem({ num: 2 })];
    expect(nums(sortItems(items, { column: 'id', direction: 'asc' }))).toEqual([2, 9, 10, 100]);
    expect(nums(sortItems(items, { column: 'id', direction: 'desc' }))).toEqual([100, 10, 9, 2]);
  });

  it('puts missing values last in both directions', () => {
    const items = [networkItem({ num: 1, status: 500 }), logItem({ num: 2 }), networkItem({ num: 3, status: 200 }), networkItem({ num: 4, status: null })];
    expect(nums(sortItems(items, { column: 'status', direction: 'asc' }))).toEqual([3, 1, 2, 4]);
    expect(nums(sortItems(items, { column: 'status', direction: 'desc' }))).toEqual([1, 3, 4, 2]);
  });

  it('compares texts without regard to case', () => {
    const items = [logItem({ num: 1, message: 'beta' }), logItem({ num: 2, message: 'Alpha' }), eventItem({ num: 3, name: 'Äpfel' }), logItem({ num: 4, message: 'alpha' })];
    expect(nums(sortItems(items, { column: 'details', direction: 'asc' }))).toEqual([2, 4, 1, 3]);
    const levels = [logItem({ num: 1, level: 'warning' }), logItem({ num: 2, level: 'Debug' }), eventItem({ num: 3 })];
    expect(nums(sortItems(levels, { column: 'level', direction: 'asc' }))).toEqual([2, 1, 3]);
  });
});

describe('sortedIndexes', () => {
  const pool = generateItems(400);
  const arbItem = fc.record({
    base: fc.constantFrom(...pool),
    num: fc.integer({ min: 1, max: 30 }),
    createdAt: fc.constantFrom('2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.001Z', '2026-11-23T12:00:00.000+02:00', '2026-11-22T23:59:59.999Z'),
  }).map(({ base, num, createdAt }): CompactItem => ({ ...base, num, createdAt }));

  it('gives the same order as the comparator for every column and direction', () => {
    fc.assert(fc.property(
      fc.array(arbItem, { maxLength: 60 }),
      fc.constantFrom(...ITEM_SORT_COLUMNS),
      fc.constantFrom('asc' as const, 'desc' as const),
      (items, column, direction) => {
        const sort = { column, direction };
        const viaIndexes = [...sortedIndexes(items, sort)].map((i) => items[i]!);
        const viaComparator = [...items].sort(itemComparator(sort));
        expect(viaIndexes.map((i) => `${i.num}/${i.id}`)).toEqual(viaComparator.map((i) => `${i.num}/${i.id}`));
      },
    ), { numRuns: 300 });
  });

  it('orders any numbers like the comparator: negatives, -0, infinities, NaN last', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ base: fc.constantFrom(...pool), num: fc.integer({ min: 1, max: 2 ** 31 }), duration: fc.double() }), { maxLength: 80 }),
      fc.constantFrom('asc' as const, 'desc' as const),
      (rows, direction) => {
        const items = rows.map(({ base, num, duration }): CompactItem => ({ ...base, num, duration }));
        for (const column of ['duration', 'id'] as const) {
          const sort = { column, direction };
          const viaIndexes = [...sortedIndexes(items, sort)].map((i) => items[i]!);
          expect(viaIndexes.map((i) => `${i.num}/${i.id}`)).toEqual([...items].sort(itemComparator(sort)).map((i) => `${i.num}/${i.id}`));
        }
      },
    ), { numRuns: 300 });
  });

  it('sorts thousands of items exactly like the comparator', () => {
    const items = generateItems(5000).map((item, i) => ({ ...item, num: (i * 7919) % 5000 + 1 }));
    for (const column of ITEM_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const expected = [...items].sort(itemComparator({ column, direction }));
        expect(sortItems(items, { column, direction })).toEqual(expected);
      }
    }
  });

  it('is a total order: antisymmetric and consistent', () => {
    fc.assert(fc.property(arbItem, arbItem, fc.constantFrom(...ITEM_SORT_COLUMNS), (a, b, column) => {
      const cmp = itemComparator({ column, direction: 'asc' });
      // Adding the signs, not negating one, keeps +0 and -0 from being told apart by toBe.
      expect(Math.sign(cmp(a, b)) + Math.sign(cmp(b, a))).toBe(0);
      expect(cmp(a, a)).toBe(0);
    }), { numRuns: 500 });
  });
});
