import { itemComparator, type CompactItem, type ItemPredicate } from '@spyglass/protocol';
import { IdIndex } from './id-index';
import { slicedMergeSort } from './sliced-merge-sort';
import { SlotIndex, type SlotComparator } from './slot-index';
import { DEFAULT_SLICE_MS, sharedSliceHost, runSliced, type SlicedTask, type SliceHost } from './time-slicer';

export type { ItemPredicate };
/** Ascending order of two items. The store applies the direction itself (see `setOrder`). */
export type ItemComparator = (a: CompactItem, b: CompactItem) => number;

/** The spec's default order field (spec 001 §4: createdAt, shown descending). */
export const compareCreatedAt: ItemComparator = itemComparator({ column: 'createdAt', direction: 'asc' });

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

export interface ItemStoreOptions {
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

interface RecomputeJob {
  version: number;
  compare: ItemComparator;
  filter: ItemPredicate | null;
  sort: boolean;
  refilter: boolean;
  /** Slots written or freed since the job took its snapshot: re-placed when it lands. */
  touched: Set<number>;
  task: SlicedTask | null;
}

interface RecomputeResult {
  order: Int32Array | null;
  visible: Int32Array;
  matches: Uint8Array | null;
}

/** Deletions of more than this many items take one pass over the index instead of one search each. */
const BULK_DELETE = 32;

/**
 * The live item list of one device: an indexed store (id → slot) with an ordered index of all
 * items and an ordered index of the items that pass the filter. Live batches are merged into
 * both indices by binary search (no re-sort), and the filter runs only on new or changed items.
 * A new filter or order is computed in time slices over a snapshot while the old view stays live;
 * writes made meanwhile are replayed onto the result, and a result overtaken by a newer request
 * is dropped.
 *
 * Both indices are kept in ascending order of the comparator; a descending view reads them
 * backwards, so the newest items (the common write) land at the cheap end of the arrays and
 * flipping the direction costs nothing.
 */
export class ItemStore {
  private items: (CompactItem | undefined)[] = [];
  private seq = new Int32Array(0);
  private matches = new Uint8Array(0);
  private selected = new Uint8Array(0);
  private capacity = 0;
  private slotCount = 0;
  private nextSeq = 0;
  private readonly idToSlot = new IdIndex();
  private free: number[] = [];
  private pendingFree: number[] = [];

  private all = new SlotIndex();
  private visible = new SlotIndex();
  private compare: ItemComparator;
  private filter: ItemPredicate | null;
  private descending: boolean;
  private targetCompare: ItemComparator;
  private targetFilter: ItemPredicate | null;
  private job: RecomputeJob | null = null;
  private jobVersion = 0;

  private selectedCount = 0;
  /** Where the current selection started: the fixed end of a Shift range. */
  private anchor = -1;
  /** The last slot selected, which is the selected one when exactly one is. */
  private focus = -1;

  private readonly listeners = new Set<() => void>();
  private batchDepth = 0;
  private dirty = false;
  private viewVersion = 0;
  private selectionVersionValue = 0;

  private readonly host: SliceHost;
  private readonly sliceMs: number;
  private readonly chunk: number;
  private readonly slotObservers = new Set<SlotObserver>();
  private readonly itemObservers = new Set<ItemObserver>();

  constructor(options: ItemStoreOptions = {}) {
    this.compare = this.targetCompare = options.compare ?? compareCreatedAt;
    this.filter = this.targetFilter = options.filter ?? null;
    this.descending = options.descending ?? true;
    this.host = options.host ?? sharedSliceHost();
    this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    this.chunk = options.chunk ?? 1024;
    if (options.slotObserver) this.slotObservers.add(options.slotObserver);
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Changes whenever rows, their order or the filter changed. */
  get version(): number {
    return this.viewVersion;
  }

  /** Changes whenever the selection changed. */
  get selectionVersion(): number {
    return this.selectionVersionValue;
  }

  /** Items shown (passing the filter). */
  get count(): number {
    return this.visible.length;
  }

  /** Items held. */
  get totalCount(): number {
    return this.idToSlot.size;
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
    return slot < 0 ? undefined : this.items[slot];
  }

  get(id: string): CompactItem | undefined {
    const slot = this.idToSlot.get(id);
    return slot === undefined ? undefined : this.items[slot];
  }

  /** Row index of an item in the current view, or -1 when it is not shown. */
  indexOfId(id: string): number {
    const slot = this.idToSlot.get(id);
    return slot === undefined ? -1 : this.indexOfSlot(slot);
  }

  /** The shown items in view order, for exports of the filtered list. */
  *rows(): IterableIterator<CompactItem> {
    const n = this.visible.length;
    for (let i = 0; i < n; i++) yield this.items[this.slotAt(i)]!;
  }

  /** Every held item, shown or not, in no particular order. */
  *allItems(): IterableIterator<CompactItem> {
    for (let slot = 0; slot < this.slotCount; slot++) {
      const item = this.items[slot];
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
   * replace the one with the same id). If exactly one non-mocked item was selected, the newest
   * added item that is shown becomes the selection.
   */
  upsertMany(incoming: readonly CompactItem[]): void {
    if (incoming.length === 0) return;
    const job = this.job;
    const filter = this.filter;
    const slotCmp = this.slotComparator();
    /** Slots not in the indices at the moment (new, or taken out to move): placed at the end. */
    const unplaced = new Set<number>();
    const added: number[] = [];
    const observed = this.itemObservers.size > 0;
    const replaced: CompactItem[] = [];

    for (const item of incoming) {
      let slot = this.idToSlot.get(item.id);
      if (slot === undefined) {
        slot = this.allocate(item);
        for (const observer of this.slotObservers) observer.written?.(slot, item);
        this.matches[slot] = filter === null || filter(item, slot) ? 1 : 0;
        unplaced.add(slot);
        added.push(slot);
        job?.touched.add(slot);
        continue;
      }
      for (const observer of this.slotObservers) {
        observer.invalidate(slot);
        observer.written?.(slot, item);
      }
      if (observed) replaced.push(this.items[slot]!);
      const match = filter === null || filter(item, slot) ? 1 : 0;
      if (unplaced.has(slot)) {
        this.items[slot] = item;
        this.matches[slot] = match;
      } else {
        const old = this.items[slot]!;
        if (this.compare(old, item) === 0) {
          // Same place in the order (a response arriving for a request): only the filter may differ.
          this.items[slot] = item;
          if (this.matches[slot] !== match) {
            if (match) this.visible.insertSorted([slot], slotCmp);
            else this.removeFromIndex(this.visible, slot, slotCmp);
            this.matches[slot] = match;
            if (!match) this.deselect(slot);
          }
        } else {
          this.removeFromIndex(this.all, slot, slotCmp);
          if (this.matches[slot]) this.removeFromIndex(this.visible, slot, slotCmp);
          this.items[slot] = item;
          this.matches[slot] = match;
          if (!match) this.deselect(slot);
          unplaced.add(slot);
        }
      }
      job?.touched.add(slot);
    }

    if (unplaced.size > 0) {
      const batch = Int32Array.from(unplaced).sort(slotCmp);
      this.all.insertSorted(batch, slotCmp);
      this.visible.insertSorted(batch.filter((s) => this.matches[s] === 1), slotCmp);
    }
    this.autoSelect(added);
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
      const slot = this.idToSlot.get(id);
      if (slot !== undefined) slots.add(slot);
    }
    if (slots.size === 0) return;
    const slotCmp = this.slotComparator();
    if (slots.size <= BULK_DELETE) {
      for (const slot of slots) {
        this.removeFromIndex(this.all, slot, slotCmp);
        if (this.matches[slot]) this.removeFromIndex(this.visible, slot, slotCmp);
      }
    } else {
      this.all.removeWhere((s) => slots.has(s));
      this.visible.removeWhere((s) => slots.has(s));
    }
    const reuse = this.job ? this.pendingFree : this.free;
    const removed: CompactItem[] = [];
    for (const slot of slots) {
      removed.push(this.items[slot]!);
      this.idToSlot.delete(this.items[slot]!.id);
      this.items[slot] = undefined;
      for (const observer of this.slotObservers) observer.invalidate(slot);
      this.matches[slot] = 0;
      this.deselect(slot);
      this.job?.touched.add(slot);
      reuse.push(slot);
    }
    for (const observer of this.itemObservers) observer.removed(removed);
    this.changed();
  }

  /** Empties the list (requests cleared, device switched, resync). */
  clear(): void {
    this.cancelJob();
    for (const observer of this.slotObservers) observer.clear();
    for (const observer of this.itemObservers) observer.cleared();
    this.items = [];
    this.capacity = 0;
    this.seq = new Int32Array(0);
    this.matches = new Uint8Array(0);
    this.selected = new Uint8Array(0);
    this.slotCount = 0;
    this.nextSeq = 0;
    this.idToSlot.clear();
    this.free = [];
    this.pendingFree = [];
    this.all = new SlotIndex();
    this.visible = new SlotIndex();
    this.compare = this.targetCompare;
    this.filter = this.targetFilter;
    const hadSelection = this.selectedCount > 0;
    this.selectedCount = 0;
    this.anchor = this.focus = -1;
    if (hadSelection) this.selectionVersionValue++;
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
    job.task = runSliced(this.recompute(job), (result) => this.land(job, result), this.host, this.sliceMs);
    this.changed();
  }

  private cancelJob(): void {
    if (!this.job) return;
    this.job.task?.cancel();
    this.job = null;
    this.free.push(...this.pendingFree);
    this.pendingFree = [];
  }

  /**
   * Works on a snapshot: the order of all items as it was, and (when sorting) the items as they
   * were, so that writes during the job cannot make the comparator inconsistent. Freed slots
   * are not reused until the job ends, so a slot in the snapshot means one item throughout.
   */
  private *recompute(job: RecomputeJob): Generator<void, RecomputeResult> {
    const chunk = this.chunk;
    let order = this.all.snapshot();
    const items = job.sort ? this.items.slice(0, this.slotCount) : this.items;
    yield;
    if (job.sort) {
      const compare = job.compare;
      order = yield* slicedMergeSort(order, (a, b) => compare(items[a]!, items[b]!) || this.seq[a]! - this.seq[b]!, chunk);
    }
    const visible = new Int32Array(order.length);
    let shown = 0;
    let matches: Uint8Array | null = null;
    if (job.refilter) {
      matches = new Uint8Array(this.capacity);
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
        if (this.matches[slot]) visible[shown++] = slot;
        if (i % (chunk * 8) === chunk * 8 - 1) yield;
      }
    }
    return { order: job.sort ? order : null, visible: visible.subarray(0, shown), matches };
  }

  private land(job: RecomputeJob, result: RecomputeResult): void {
    if (job !== this.job || job.version !== this.jobVersion) return;
    this.job = null;
    this.compare = job.compare;
    this.filter = job.filter;
    const slotCmp = this.slotComparator();
    const all = result.order ? SlotIndex.from(result.order) : this.all;
    const visible = SlotIndex.from(result.visible);
    let matches = this.matches;
    if (result.matches) {
      matches = new Uint8Array(this.capacity);
      matches.set(result.matches.subarray(0, Math.min(result.matches.length, this.capacity)));
    }

    if (job.touched.size > 0) {
      const touched = job.touched;
      if (result.order) all.removeWhere((s) => touched.has(s));
      visible.removeWhere((s) => touched.has(s));
      const live = Int32Array.from([...touched].filter((s) => this.items[s] !== undefined)).sort(slotCmp);
      if (result.order) all.insertSorted(live, slotCmp);
      if (result.matches) {
        const filter = job.filter;
        for (const s of live) matches[s] = filter === null || filter(this.items[s]!, s) ? 1 : 0;
      }
      visible.insertSorted(live.filter((s) => matches[s] === 1), slotCmp);
    }

    this.all = all;
    this.visible = visible;
    this.matches = matches;
    this.free.push(...this.pendingFree);
    this.pendingFree = [];
    if (result.matches) this.dropHiddenFromSelection();
    this.changed();
  }

  // ---- selection (spec 001 §4) ---------------------------------------------------------------

  get selectionCount(): number {
    return this.selectedCount;
  }

  isSelectedAt(index: number): boolean {
    const slot = this.slotAt(index);
    return slot >= 0 && this.selected[slot] === 1;
  }

  isSelected(id: string): boolean {
    const slot = this.idToSlot.get(id);
    return slot !== undefined && this.selected[slot] === 1;
  }

  /** Plain click: this row only. */
  selectOnly(index: number): void {
    const slot = this.slotAt(index);
    if (slot < 0) return;
    this.resetSelection();
    this.mark(slot);
    this.anchor = slot;
    this.selectionChanged();
  }

  /** Ctrl/Meta click. */
  toggleAt(index: number): void {
    const slot = this.slotAt(index);
    if (slot < 0) return;
    if (this.selected[slot]) {
      this.deselect(slot);
    } else {
      if (this.selectedCount === 0) this.anchor = slot;
      this.mark(slot);
    }
    this.selectionChanged();
  }

  /** Shift click: the rows between the row where the selection started and this one. */
  selectRangeTo(index: number): void {
    const from = this.anchor >= 0 && this.selected[this.anchor] ? this.indexOfSlot(this.anchor) : -1;
    if (from < 0) {
      this.selectOnly(index);
      return;
    }
    const anchor = this.anchor;
    this.resetSelection();
    const to = Math.max(0, Math.min(index, this.count - 1));
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) this.mark(this.slotAt(i));
    this.anchor = anchor;
    this.focus = this.slotAt(to);
    this.selectionChanged();
  }

  /** Ctrl/Meta+A: every shown row. */
  selectAll(): void {
    const n = this.visible.length;
    this.resetSelection();
    for (let i = 0; i < n; i++) this.mark(this.visible.at(i));
    if (n > 0) this.anchor = this.slotAt(0);
    this.selectionChanged();
  }

  /**
   * Arrow keys move a single selection; answers the new row index (to scroll it into view), or
   * -1 when there was not exactly one selected row.
   */
  moveSelection(delta: number): number {
    if (this.selectedCount !== 1) return -1;
    const from = this.indexOfSlot(this.singleSelectedSlot());
    if (from < 0) return -1;
    const to = Math.max(0, Math.min(from + delta, this.count - 1));
    this.selectOnly(to);
    return to;
  }

  clearSelection(): void {
    if (this.selectedCount === 0) return;
    this.resetSelection();
    this.selectionChanged();
  }

  /** Selected items in view order (for export and delete). */
  selectedItems(): CompactItem[] {
    const out: CompactItem[] = [];
    if (this.selectedCount === 0) return out;
    const n = this.visible.length;
    for (let i = 0; i < n; i++) {
      const slot = this.slotAt(i);
      if (this.selected[slot]) out.push(this.items[slot]!);
    }
    return out;
  }

  /** The selected item when exactly one is selected (the details panel shows it). */
  get singleSelected(): CompactItem | undefined {
    return this.selectedCount === 1 ? this.items[this.singleSelectedSlot()] : undefined;
  }

  private autoSelect(added: number[]): void {
    if (this.selectedCount !== 1 || added.length === 0) return;
    let current = this.singleSelectedSlot();
    for (const slot of added) {
      if (this.items[current]?.isMocked || !this.matches[slot] || this.items[slot] === undefined) continue;
      current = slot;
    }
    if (current === this.singleSelectedSlot()) return;
    this.resetSelection();
    this.mark(current);
    this.anchor = current;
    this.selectionVersionValue++;
  }

  private singleSelectedSlot(): number {
    if (this.focus >= 0 && this.selected[this.focus]) return this.focus;
    const found = this.selected.indexOf(1);
    this.focus = found;
    return found;
  }

  private mark(slot: number): void {
    if (this.selected[slot]) return;
    this.selected[slot] = 1;
    this.selectedCount++;
    this.focus = slot;
  }

  /** Leaves the notification to the caller, so that listeners never see a half-done write. */
  private deselect(slot: number): void {
    if (!this.selected[slot]) return;
    this.selected[slot] = 0;
    this.selectedCount--;
    if (this.anchor === slot) this.anchor = -1;
    this.selectionVersionValue++;
  }

  private resetSelection(): void {
    if (this.selectedCount > 0) this.selected.fill(0);
    this.selectedCount = 0;
    this.anchor = this.focus = -1;
  }

  private dropHiddenFromSelection(): void {
    if (this.selectedCount === 0) return;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.selected[slot] && !this.matches[slot]) this.deselect(slot);
    }
  }

  // ---- internals -----------------------------------------------------------------------------

  private slotAt(index: number): number {
    const n = this.visible.length;
    if (index < 0 || index >= n) return -1;
    return this.visible.at(this.descending ? n - 1 - index : index);
  }

  private indexOfSlot(slot: number): number {
    if (!this.matches[slot] || this.items[slot] === undefined) return -1;
    const position = this.visible.indexOf(slot, this.slotComparator());
    if (position < 0) return -1;
    return this.descending ? this.visible.length - 1 - position : position;
  }

  /** Total order over slots: the comparator, then arrival, so equal keys keep a stable place. */
  private slotComparator(): SlotComparator {
    const items = this.items;
    const compare = this.compare;
    return (a, b) => compare(items[a]!, items[b]!) || this.seq[a]! - this.seq[b]!;
  }

  private removeFromIndex(index: SlotIndex, slot: number, slotCmp: SlotComparator): void {
    const position = index.indexOf(slot, slotCmp);
    if (position >= 0) index.removeAt(position);
  }

  private allocate(item: CompactItem): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.slotCount++;
      if (slot >= this.capacity) this.grow(slot + 1);
    }
    this.items[slot] = item;
    this.seq[slot] = this.nextSeq++;
    this.idToSlot.set(item.id, slot);
    return slot;
  }

  private grow(needed: number): void {
    let capacity = Math.max(1024, this.capacity);
    while (capacity < needed) capacity *= 2;
    const seq = new Int32Array(capacity);
    seq.set(this.seq);
    const matches = new Uint8Array(capacity);
    matches.set(this.matches);
    const selected = new Uint8Array(capacity);
    selected.set(this.selected);
    this.seq = seq;
    this.matches = matches;
    this.selected = selected;
    this.capacity = capacity;
  }

  private changed(): void {
    this.viewVersion++;
    this.emit();
  }

  private selectionChanged(): void {
    this.selectionVersionValue++;
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
