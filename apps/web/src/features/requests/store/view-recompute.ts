import type { ItemPredicate } from '@spyglass/protocol';
import type { ItemComparator } from './item-order';
import { slicedMergeSort } from './sliced-merge-sort';
import { SlotIndex, type SlotComparator } from './slot-index';
import type { SlotTable } from './slot-table';
import type { SlicedTask } from './time-slicer';

/** A new order or filter of the list store, computed in time slices while the old view stays live. */
export interface RecomputeJob {
  version: number;
  compare: ItemComparator;
  filter: ItemPredicate | null;
  sort: boolean;
  refilter: boolean;
  /** Slots written or freed since the job took its snapshot: re-placed when it lands. */
  touched: Set<number>;
  task: SlicedTask | null;
}

export interface RecomputeResult {
  order: Int32Array | null;
  visible: Int32Array;
  matches: Uint8Array | null;
}

/** The store's view: all items in order, the shown ones in order, and which pass the filter. */
export interface StoreView {
  all: SlotIndex;
  visible: SlotIndex;
  matches: Uint8Array;
}

/**
 * Works on a snapshot: the order of all items as it was, and (when sorting) the items as they
 * were, so that writes during the job cannot make the comparator inconsistent. The store holds
 * freed slots back until the job ends, so a slot in the snapshot means one item throughout.
 */
export function* recompute(job: RecomputeJob, slots: SlotTable, all: SlotIndex, chunk: number): Generator<void, RecomputeResult> {
  let order = all.snapshot();
  const items = job.sort ? slots.items.slice(0, slots.slotCount) : slots.items;
  yield;
  if (job.sort) {
    const compare = job.compare;
    order = yield* slicedMergeSort(order, (a, b) => compare(items[a]!, items[b]!) || slots.seq[a]! - slots.seq[b]!, chunk);
  }
  const visible = new Int32Array(order.length);
  let shown = 0;
  let matches: Uint8Array | null = null;
  if (job.refilter) {
    matches = new Uint8Array(slots.capacity);
    const filter = job.filter;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i]!;
      const item = items[slot];
      if (item !== undefined && (filter === null || filter(item, slot))) {
        matches[slot] = 1;
        visible[shown++] = slot;
      }
      if (i % chunk === chunk - 1) yield;
    }
  } else {
    for (let i = 0; i < order.length; i++) {
      const slot = order[i]!;
      if (slots.matches[slot]) visible[shown++] = slot;
      if (i % (chunk * 8) === chunk * 8 - 1) yield;
    }
  }
  return { order: job.sort ? order : null, visible: visible.subarray(0, shown), matches };
}

/**
 * The view a finished job leaves: its result, with the slots written meanwhile (`touched`) taken
 * out and put back where they now belong. `slotCmp` is the job's order over today's items.
 */
export function landedView(job: RecomputeJob, result: RecomputeResult, slots: SlotTable, all: SlotIndex, slotCmp: SlotComparator): StoreView {
  const landedAll = result.order ? SlotIndex.from(result.order) : all;
  const visible = SlotIndex.from(result.visible);
  let matches = slots.matches;
  if (result.matches) {
    matches = new Uint8Array(slots.capacity);
    matches.set(result.matches.subarray(0, Math.min(result.matches.length, slots.capacity)));
  }

  if (job.touched.size > 0) {
    const touched = job.touched;
    if (result.order) landedAll.removeWhere((s) => touched.has(s));
    visible.removeWhere((s) => touched.has(s));
    const live = Int32Array.from([...touched].filter((s) => slots.items[s] !== undefined)).sort(slotCmp);
    if (result.order) landedAll.insertSorted(live, slotCmp);
    if (result.matches) {
      const filter = job.filter;
      for (const s of live) matches[s] = filter === null || filter(slots.items[s]!, s) ? 1 : 0;
    }
    visible.insertSorted(live.filter((s) => matches[s] === 1), slotCmp);
  }
  return { all: landedAll, visible, matches };
}
