/**
 * A growable, sorted array of storage slots (Int32Array): the ordered index of the list store.
 * Ordering is given by a total comparator over slots, so every slot has exactly one position
 * and can be found by binary search.
 */
export type SlotComparator = (a: number, b: number) => number;

export class SlotIndex {
  private data: Int32Array;
  private count = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  /** Wraps an already sorted array (taken over, not copied). */
  static from(sorted: Int32Array, length = sorted.length): SlotIndex {
    const index = new SlotIndex(0);
    index.data = sorted;
    index.count = length;
    return index;
  }

  get length(): number {
    return this.count;
  }

  at(position: number): number {
    return this.data[position]!;
  }

  /** A copy of the live part, for a background recompute that must not see later writes. */
  snapshot(): Int32Array {
    return this.data.slice(0, this.count);
  }

  clear(): void {
    this.count = 0;
  }

  /** First position (below `end`) whose slot does not sort before `slot`. */
  lowerBound(slot: number, cmp: SlotComparator, end = this.count): number {
    let lo = 0;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(this.data[mid]!, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of `slot`, or -1. `cmp` must be the comparator the index is sorted by. */
  indexOf(slot: number, cmp: SlotComparator): number {
    const position = this.lowerBound(slot, cmp);
    return position < this.count && this.data[position] === slot ? position : -1;
  }

  /**
   * Merges a batch sorted by `cmp` into the index in one backward pass: O(batch + number of
   * entries after the first insertion point). Appends (the common case for live items in
   * ascending time order) only touch the tail.
   */
  insertSorted(batch: ArrayLike<number>, cmp: SlotComparator): void {
    const k = batch.length;
    if (k === 0) return;
    this.reserve(this.count + k);
    const data = this.data;
    let read = this.count - 1;
    let write = this.count + k - 1;
    let next = k - 1;
    while (next >= 0) {
      const incoming = batch[next]!;
      if (read >= 0 && cmp(data[read]!, incoming) > 0) {
        // Move the run of existing entries that sort after `incoming` in one block.
        const runEnd = read;
        const stop = this.lowerBound(incoming, cmp, read + 1);
        const runLength = runEnd - stop + 1;
        data.copyWithin(write - runLength + 1, stop, runEnd + 1);
        write -= runLength;
        read = stop - 1;
      }
      data[write--] = incoming;
      next--;
    }
    this.count += k;
  }

  removeAt(position: number): void {
    this.data.copyWithin(position, position + 1, this.count);
    this.count--;
  }

  /** Removes every slot for which `drop` answers true, in one pass. Answers how many went. */
  removeWhere(drop: (slot: number) => boolean): number {
    const data = this.data;
    let write = 0;
    for (let read = 0; read < this.count; read++) {
      const slot = data[read]!;
      if (!drop(slot)) data[write++] = slot;
    }
    const removed = this.count - write;
    this.count = write;
    return removed;
  }

  private reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    let next = Math.max(16, this.data.length * 2);
    while (next < capacity) next *= 2;
    const grown = new Int32Array(next);
    grown.set(this.data.subarray(0, this.count));
    this.data = grown;
  }
}
