import type { CompactItem, ItemPredicate } from '@spyglass/protocol';
import { compareCreatedAt, type ItemComparator } from './item-order';
import { shareItemStrings, StringPool } from './item-strings';
import { ListSelection } from './list-selection';
import { SlotIndex, type SlotComparator } from './slot-index';
import { SlotTable } from './slot-table';
import { DEFAULT_SLICE_MS, sharedSliceHost, runSliced, type SliceHost } from './time-slicer';
import { landedView, recompute, type RecomputeJob } from './view-recompute';

export type { ItemPredicate };

/**
 * Told when the item at a slot is replaced or freed, and when everything goes: for data kept by
 * slot outside the store, such as the search texts of `SearchTextColumn` (the filter is called
 * with the item's slot as its index).
 */
export interface SlotObserver {
  /**
   * An item was put at `slot` (new, or replacing the one there, after `invalidate`): called
   * before the filter sees it, for data built as items arrive rather than when first read.
   */
  written?(slot: number, item: CompactItem): void;
  invalidate(slot: number): void;
  clear(): void;
}

/**
 * Told which items came and went (a replaced item counts as its successor added and itself removed): for
 * indexes kept beside the store that must follow it incrementally, such as the search bar's
 * values seen per field. Called before the store notifies its subscribers.
 */
export interface ItemObserver {
  added(items: readonly CompactItem[]): void;
  removed(items: readonly CompactItem[]): void;
  cleared(): void;
}

export interface ListStoreOptions {
  compare?: ItemComparator;
  descending?: boolean;
  filter?: ItemPredicate | null;
  /** Where re-sorting and re-filtering run their slices (tests drive them by hand). */
  host?: SliceHost;
  sliceMs?: number;
  /** Items handled between two looks at the clock. */
  chunk?: number;
  slotObserver?: SlotObserver;
}

/** Deletions of more than this many items take one pass over the index instead of one search each. */
const BULK_DELETE = 32;

/**
 * The items of the request list (one device's live items, or a saved session's) and the view of
 * them the screen shows: an indexed store (id → slot, `SlotTable`) with an ordered index of all
 * items and an ordered index of the items that pass the filter. Live batches are merged into
 * both indices by binary search (no re-sort), and the filter runs only on new or changed items.
 * A new filter or order is computed in time slices over a snapshot while the old view stays live
 * (`view-recompute.ts`); writes made meanwhile are replayed onto the result, and a result
 * overtaken by a newer request is dropped. The selection is kept by `ListSelection`.
 *
 * Both indices are kept in ascending order of the comparator; a descending view reads them
 * backwards, so the newest items (the common write) land at the cheap end of the arrays and
 * flipping the direction costs nothing.
 */
export class ListStore {
  private readonly slots = new SlotTable();
  private all = new SlotIndex();
  private visible = new SlotIndex();
  private compare: ItemComparator;
  private filter: ItemPredicate | null;
  private descending: boolean;
  private targetCompare: ItemComparator;
  private targetFilter: ItemPredicate | null;
  private job: RecomputeJob | null = null;
  private jobVersion = 0;
  private readonly selection: ListSelection;

  private readonly listeners = new Set<() => void>();
  private batchDepth = 0;
  private dirty = false;
  private viewVersion = 0;

  private readonly host: SliceHost;
  private readonly sliceMs: number;
  private readonly chunk: number;
  private readonly slotObservers = new Set<SlotObserver>();
  private readonly itemObservers = new Set<ItemObserver>();
  /** Repeated strings of the held items, kept once (see `shareItemStrings`). */
  private readonly strings = new StringPool();

  constructor(options: ListStoreOptions = {}) {
    this.compare = this.targetCompare = options.compare ?? compareCreatedAt;
    this.filter = this.targetFilter = options.filter ?? null;
    this.descending = options.descending ?? true;
    this.host = options.host ?? sharedSliceHost();
    this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    this.chunk = options.chunk ?? 1024;
    if (options.slotObserver) this.slotObservers.add(options.slotObserver);
    this.selection = new ListSelection(this.slots, {
      count: () => this.visible.length,
      slotAt: (index) => this.slotAt(index),
      indexOfSlot: (slot) => this.indexOfSlot(slot),
    }, () => this.emit());
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Changes whenever rows, their order or the filter changed. */
  get version(): number {
    return this.viewVersion;
  }

  /** Items shown (passing the filter). */
  get count(): number {
    return this.visible.length;
  }

  /** Items held. */
  get totalCount(): number {
    return this.slots.size;
  }

  /** True when a filter is set (or being computed), so that some held items may not be shown. */
  get isFiltered(): boolean {
    return this.targetFilter !== null;
  }

  /** True while a new filter or order is being computed; the rows still show the previous one. */
  get isRecomputing(): boolean {
    return this.job !== null;
  }

  get isDescending(): boolean {
    return this.descending;
  }

  /** The ascending comparator the rows are in now (views that can use the order, like the bar chart, check it). */
  get order(): ItemComparator {
    return this.compare;
  }

  rowAt(index: number): CompactItem | undefined {
    const slot = this.slotAt(index);
    return slot < 0 ? undefined : this.slots.items[slot];
  }

  get(id: string): CompactItem | undefined {
    const slot = this.slots.slotOf(id);
    return slot === undefined ? undefined : this.slots.items[slot];
  }

  /** Row index of an item in the current view, or -1 when it is not shown. */
  indexOfId(id: string): number {
    const slot = this.slots.slotOf(id);
    return slot === undefined ? -1 : this.indexOfSlot(slot);
  }

  /** The shown items in view order, for exports of the filtered list. */
  *rows(): IterableIterator<CompactItem> {
    const n = this.visible.length;
    for (let i = 0; i < n; i++) yield this.slots.items[this.slotAt(i)]!;
  }

  /** Every held item, shown or not, in no particular order. */
  *allItems(): IterableIterator<CompactItem> {
    const { items, slotCount } = this.slots;
    for (let slot = 0; slot < slotCount; slot++) {
      const item = items[slot];
      if (item !== undefined) yield item;
    }
  }

  /** Data kept by slot beside the store (see `SlotObserver`); answers the function that detaches it. */
  observeSlots(observer: SlotObserver): () => void {
    this.slotObservers.add(observer);
    return () => this.slotObservers.delete(observer);
  }

  /** Follows the items coming and going (see `ItemObserver`); answers the function that detaches it. */
  observeItems(observer: ItemObserver): () => void {
    this.itemObservers.add(observer);
    return () => this.itemObservers.delete(observer);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Runs `fn` with change notifications held back until it returns (one render per frame). */
  batch(fn: () => void): void {
    this.batchDepth++;
    try {
      fn();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.dirty) this.emit();
    }
  }

  // ---- writing -------------------------------------------------------------------------------

  /**
   * Adds new items and replaces those whose id is already held (spec 001 §4: put at its place or
   * replace the one with the same id). If exactly one non-mocked item was selected and it was the
   * newest shown, the newest added item that is shown becomes the selection.
   */
  upsertMany(incoming: readonly CompactItem[]): void {
    if (incoming.length === 0) return;
    const job = this.job;
    const filter = this.filter;
    const slots = this.slots;
    const slotCmp = this.slotComparator();
    /** Slots not in the indices at the moment (new, or taken out to move): placed at the end. */
    const unplaced = new Set<number>();
    const added: number[] = [];
    const observed = this.itemObservers.size > 0;
    const replaced: CompactItem[] = [];
    this.selection.beforeAdding();

    for (const item of incoming) {
      shareItemStrings(item, this.strings);
      let slot = slots.slotOf(item.id);
      if (slot === undefined) {
        slot = slots.allocate(item);
        for (const observer of this.slotObservers) observer.written?.(slot, item);
        slots.matches[slot] = filter === null || filter(item, slot) ? 1 : 0;
        unplaced.add(slot);
        added.push(slot);
        job?.touched.add(slot);
        continue;
      }
      for (const observer of this.slotObservers) {
        observer.invalidate(slot);
        observer.written?.(slot, item);
      }
      if (observed) replaced.push(slots.items[slot]!);
      const match = filter === null || filter(item, slot) ? 1 : 0;
      if (unplaced.has(slot)) {
        slots.items[slot] = item;
        slots.matches[slot] = match;
      } else {
        const old = slots.items[slot]!;
        if (this.compare(old, item) === 0) {
          // Same place in the order (a response arriving for a request): only the filter may differ.
          slots.items[slot] = item;
          if (slots.matches[slot] !== match) {
            if (match) this.visible.insertSorted([slot], slotCmp);
            else this.removeFromIndex(this.visible, slot, slotCmp);
            slots.matches[slot] = match;
            if (!match) this.selection.forget(slot);
          }
        } else {
          this.removeFromIndex(this.all, slot, slotCmp);
          if (slots.matches[slot]) this.removeFromIndex(this.visible, slot, slotCmp);
          slots.items[slot] = item;
          slots.matches[slot] = match;
          if (!match) this.selection.forget(slot);
          unplaced.add(slot);
        }
      }
      job?.touched.add(slot);
    }

    if (unplaced.size > 0) {
      const batch = Int32Array.from(unplaced).sort(slotCmp);
      this.all.insertSorted(batch, slotCmp);
      this.visible.insertSorted(batch.filter((s) => slots.matches[s] === 1), slotCmp);
    }
    this.selection.followNewItems(added);
    if (observed) {
      for (const observer of this.itemObservers) {
        // Added first: a batch may carry an item and its own replacement.
        observer.added(incoming);
        if (replaced.length > 0) observer.removed(replaced);
      }
    }
    this.changed();
  }

  deleteIds(ids: readonly string[]): void {
    const slots = new Set<number>();
    for (const id of ids) {
      const slot = this.slots.slotOf(id);
      if (slot !== undefined) slots.add(slot);
    }
    if (slots.size === 0) return;
    const slotCmp = this.slotComparator();
    if (slots.size <= BULK_DELETE) {
      for (const slot of slots) {
        this.removeFromIndex(this.all, slot, slotCmp);
        if (this.slots.matches[slot]) this.removeFromIndex(this.visible, slot, slotCmp);
      }
    } else {
      this.all.removeWhere((s) => slots.has(s));
      this.visible.removeWhere((s) => slots.has(s));
    }
    const removed: CompactItem[] = [];
    for (const slot of slots) {
      removed.push(this.slots.release(slot));
      for (const observer of this.slotObservers) observer.invalidate(slot);
      this.selection.forget(slot);
      this.job?.touched.add(slot);
    }
    for (const observer of this.itemObservers) observer.removed(removed);
    this.selection.shownChanged();
    this.changed();
  }

  /** Empties the list (requests cleared, device switched, resync). */
  clear(): void {
    this.cancelJob();
    for (const observer of this.slotObservers) observer.clear();
    for (const observer of this.itemObservers) observer.cleared();
    this.slots.clear();
    this.strings.clear();
    this.all = new SlotIndex();
    this.visible = new SlotIndex();
    this.compare = this.targetCompare;
    this.filter = this.targetFilter;
    this.selection.forgetAll();
    this.changed();
  }

  // ---- order and filter ----------------------------------------------------------------------

  /**
   * Orders the view by `compare` (ascending) read in the given direction. A new comparator is
   * applied in time slices; a direction change alone is immediate.
   */
  setOrder(compare: ItemComparator, descending: boolean): void {
    if (descending !== this.descending) {
      this.descending = descending;
      this.changed();
    }
    if (compare !== this.targetCompare) {
      this.targetCompare = compare;
      this.restartJob();
    }
  }

  /** Shows only items passing `filter` (null: all), computed in time slices. */
  setFilter(filter: ItemPredicate | null): void {
    if (filter === this.targetFilter) return;
    this.targetFilter = filter;
    this.restartJob();
  }

  private restartJob(): void {
    this.cancelJob();
    const sort = this.targetCompare !== this.compare;
    const refilter = this.targetFilter !== this.filter;
    if (!sort && !refilter) {
      this.changed();
      return;
    }
    const job: RecomputeJob = {
      version: ++this.jobVersion,
      compare: this.targetCompare,
      filter: this.targetFilter,
      sort,
      refilter,
      touched: new Set(),
      task: null,
    };
    this.job = job;
    this.slots.holdFreed();
    job.task = runSliced(recompute(job, this.slots, this.all, this.chunk), (result) => {
      if (job !== this.job || job.version !== this.jobVersion) return;
      this.job = null;
      this.compare = job.compare;
      this.filter = job.filter;
      const view = landedView(job, result, this.slots, this.all, this.slotComparator());
      this.all = view.all;
      this.visible = view.visible;
      this.slots.matches = view.matches;
      this.slots.reuseHeld();
      if (result.matches) this.selection.forgetHidden();
      this.changed();
    }, this.host, this.sliceMs);
    this.changed();
  }

  private cancelJob(): void {
    if (!this.job) return;
    this.job.task?.cancel();
    this.job = null;
    this.slots.reuseHeld();
  }

  // ---- selection (spec 001 §4), kept by ListSelection ----------------------------------------

  /** Changes whenever the selection changed. */
  get selectionVersion(): number {
    return this.selection.version;
  }

  get selectionCount(): number {
    return this.selection.count;
  }

  isSelectedAt(index: number): boolean {
    return this.selection.has(this.slotAt(index));
  }

  isSelected(id: string): boolean {
    const slot = this.slots.slotOf(id);
    return slot !== undefined && this.selection.has(slot);
  }

  /** Plain click: this row only. */
  selectOnly(index: number): void {
    this.selection.selectOnly(index);
  }

  /** Ctrl/Meta click. */
  toggleAt(index: number): void {
    this.selection.toggleAt(index);
  }

  /** Shift click: the rows between the row where the selection started and this one. */
  selectRangeTo(index: number): void {
    this.selection.selectRangeTo(index);
  }

  /** Ctrl/Meta+A: every shown row. */
  selectAll(): void {
    this.selection.selectAll();
  }

  /** Arrow keys: answers the new row index of a single selection, or -1 when not exactly one row was selected. */
  moveSelection(delta: number): number {
    return this.selection.move(delta);
  }

  clearSelection(): void {
    this.selection.clear();
  }

  /** Selected items in view order (for export and delete). */
  selectedItems(): CompactItem[] {
    return this.selection.items();
  }

  /** The selected item when exactly one is selected (the details panel shows it). */
  get singleSelected(): CompactItem | undefined {
    return this.selection.single;
  }

  // ---- internals -----------------------------------------------------------------------------

  private slotAt(index: number): number {
    const n = this.visible.length;
    if (index < 0 || index >= n) return -1;
    return this.visible.at(this.descending ? n - 1 - index : index);
  }

  private indexOfSlot(slot: number): number {
    if (!this.slots.matches[slot] || this.slots.items[slot] === undefined) return -1;
    const position = this.visible.indexOf(slot, this.slotComparator());
    if (position < 0) return -1;
    return this.descending ? this.visible.length - 1 - position : position;
  }

  /** Total order over slots: the comparator, then arrival, so equal keys keep a stable place. */
  private slotComparator(): SlotComparator {
    const slots = this.slots;
    const items = slots.items;
    const compare = this.compare;
    return (a, b) => compare(items[a]!, items[b]!) || slots.seq[a]! - slots.seq[b]!;
  }

  private removeFromIndex(index: SlotIndex, slot: number, slotCmp: SlotComparator): void {
    const position = index.indexOf(slot, slotCmp);
    if (position >= 0) index.removeAt(position);
  }

  private changed(): void {
    this.viewVersion++;
    this.emit();
  }

  private emit(): void {
    if (this.batchDepth > 0) {
      this.dirty = true;
      return;
    }
    this.dirty = false;
    for (const listener of this.listeners) listener();
  }
}
