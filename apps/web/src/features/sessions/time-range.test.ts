import { describe, expect, it } from 'vitest';
import { logItem } from '../../../../../packages/protocol/src/item-fixtures';
import { itemsInRange, rangeStep, timeBounds } from './time-range';

const at = (iso: string, num: number) => logItem({ num, createdAt: iso });

describe('session time range', () => {
  const items = [at('2026-03-01T10:00:00.000Z', 1), at('2026-03-01T10:00:05.000Z', 2), at('2026-03-01T10:00:02.000Z', 3), at('2026-03-01T10:01:00.000Z', 4)];
  const bounds = timeBounds(items)!;

  it('spans the earliest to the latest creation time, only with at least 2 distinct times', () => {
    expect(bounds).toEqual([Date.parse('2026-03-01T10:00:00.000Z'), Date.parse('2026-03-01T10:01:00.000Z')]);
    expect(timeBounds(items.slice(0, 1))).toBeNull();
    expect(timeBounds([])).toBeNull();
    expect(timeBounds([at('2026-03-01T10:00:00.000Z', 1), at('2026-03-01T10:00:00.000Z', 2)])).toBeNull();
  });

  it('keeps the items inside the range, bounds included, in their order', () => {
    const range = [Date.parse('2026-03-01T10:00:02.000Z'), Date.parse('2026-03-01T10:00:05.000Z')] as const;
    expect(itemsInRange(items, range, bounds).map((i) => i.num)).toEqual([2, 3]);
    expect(itemsInRange(items, bounds, bounds)).toBe(items);
    expect(itemsInRange(items, null, bounds)).toBe(items);
  });

  it('steps a thousandth of the span, at least 1 ms', () => {
    expect(rangeStep(bounds)).toBe(60);
    expect(rangeStep([0, 10])).toBe(1);
  });
});
