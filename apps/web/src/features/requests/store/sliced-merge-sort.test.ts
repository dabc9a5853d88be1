import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slicedMergeSort } from './sliced-merge-sort';
import { SlotIndex } from './slot-index';

function runToEnd<T>(work: Generator<void, T>): { result: T; yields: number } {
  let yields = 0;
  for (;;) {
    const step = work.next();
    if (step.done) return { result: step.value, yields };
    yields++;
  }
}

describe('slicedMergeSort', () => {
  it('sorts stably, like Array.prototype.sort, whatever the chunk size', () => {
    fc.assert(fc.property(fc.array(fc.nat(50), { maxLength: 700 }), fc.integer({ min: 1, max: 300 }), (keys, chunk) => {
      const slots = Int32Array.from(keys.keys());
      const byKey = (a: number, b: number) => keys[a]! - keys[b]!;
      const { result } = runToEnd(slicedMergeSort(slots.slice(), byKey, chunk));
      expect([...result]).toEqual([...slots].sort(byKey));
    }));
  });

  it('splits even the last merge of a large array into chunks', () => {
    const n = 100_000;
    const keys = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const { result, yields } = runToEnd(slicedMergeSort(Int32Array.from(keys.keys()), (a, b) => keys[a]! - keys[b]!, 1000));
    // About n·log2(n / 32) / chunk steps of work; none may be much larger than a chunk.
    expect(yields).toBeGreaterThan(1000);
    let outOfOrder = 0;
    for (let i = 1; i < n; i++) if (keys[result[i - 1]!]! > keys[result[i]!]!) outOfOrder++;
    expect(outOfOrder).toBe(0);
    expect(new Set(result).size).toBe(n);
  });
});

describe('SlotIndex', () => {
  it('merges sorted batches into the same order as sorting everything', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.nat(1000), { maxLength: 30 }), { maxLength: 20 }), (batches) => {
      // Slots are distinct; the key of a slot is its value modulo 97, ties broken by slot.
      const key = (s: number) => s % 97;
      const cmp = (a: number, b: number) => key(a) - key(b) || a - b;
      const index = new SlotIndex(1);
      const seen = new Set<number>();
      for (const batch of batches) {
        const fresh = [...new Set(batch)].filter((s) => !seen.has(s));
        fresh.forEach((s) => seen.add(s));
        index.insertSorted(Int32Array.from(fresh).sort(cmp), cmp);
      }
      const all = [...seen].sort(cmp);
      expect([...index.snapshot()]).toEqual(all);
      for (const s of all) expect(index.at(index.indexOf(s, cmp))).toBe(s);
      expect(index.indexOf(5000, cmp)).toBe(-1);
      expect(index.removeWhere((s) => s % 2 === 0)).toBe(all.filter((s) => s % 2 === 0).length);
      expect([...index.snapshot()]).toEqual(all.filter((s) => s % 2 === 1));
    }));
  });
});
