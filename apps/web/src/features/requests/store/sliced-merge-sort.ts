import type { SlotComparator } from './slot-index';

const RUN = 32;

/**
 * A stable bottom-up merge sort of slots that yields after every `chunk` elements of work, so
 * that it can run in time slices: Array.prototype.sort cannot be interrupted, and sorting a
 * million rows with an item comparator takes far longer than a frame. Merges themselves are
 * resumable, so the last pass over a million rows is split like the others.
 *
 * The input array is used as scratch space; the generator returns the sorted array.
 */
export function* slicedMergeSort(slots: Int32Array, cmp: SlotComparator, chunk = 4096): Generator<void, Int32Array> {
  const n = slots.length;
  if (n <= 1) return slots;
  let budget = chunk;

  for (let start = 0; start < n; start += RUN) {
    insertionSort(slots, start, Math.min(start + RUN, n), cmp);
    budget -= RUN;
    if (budget <= 0) {
      budget = chunk;
      yield;
    }
  }

  let source: Int32Array = slots;
  let target: Int32Array = new Int32Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const mid = Math.min(start + width, n);
      const end = Math.min(start + 2 * width, n);
      if (mid >= end || cmp(source[mid - 1]!, source[mid]!) <= 0) {
        // Already in order (always the case for the lone last run, often for live data).
        target.set(source.subarray(start, end), start);
        budget -= (end - start) >>> 4;
      } else {
        let i = start;
        let j = mid;
        let k = start;
        while (i < mid && j < end) {
          if (cmp(source[j]!, source[i]!) < 0) target[k++] = source[j++]!;
          else target[k++] = source[i++]!;
          if (--budget <= 0) {
            budget = chunk;
            yield;
          }
        }
        while (i < mid) target[k++] = source[i++]!;
        while (j < end) target[k++] = source[j++]!;
      }
      if (budget <= 0) {
        budget = chunk;
        yield;
      }
    }
    const swap = source;
    source = target;
    target = swap;
  }
  return source;
}

function insertionSort(a: Int32Array, start: number, end: number, cmp: SlotComparator): void {
  for (let i = start + 1; i < end; i++) {
    const value = a[i]!;
    let j = i - 1;
    while (j >= start && cmp(a[j]!, value) > 0) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = value;
  }
}
