import type { CompactItem } from '@spyglass/protocol';
import type { SlotTable } from './slot-table';

/** The rows the list store shows, as the selection addresses them. */
export interface ShownRows {
  /** Rows shown. */
  count(): number;
  /** The slot shown at a row index, or -1. */
  slotAt(index: number): number;
  /** The row index of a slot, or -1 when it is not shown. */
  indexOfSlot(slot: number): number;
}

/**
 * The selection of the request list (spec 001 §4): which slots are selected, where a Shift range
 * starts (the anchor) and which row a single selection is (the focus). The list store owns one
 * and forwards its users' calls; `changed` tells the store's subscribers.
 */
export class ListSelection {
  private selected = new Uint8Array(0);
  private size = 0;
  /** Where the current selection started: the fixed end of a Shift range. */
  private anchor = -1;
  /** The last slot selected, which is the selected one when exactly one is. */
  private focus = -1;
  private versionValue = 0;
  /**
   * The display number of the newest item shown (arrival order, whatever the sort), or null when
   * it must be found again (items were deleted, a filter landed).
   */
  private newestShownNum: number | null = Number.NEGATIVE_INFINITY;
  /** Whether the next items added move the selection: set by `beforeAdding`. */
  private following = false;

  constructor(
    private readonly slots: SlotTable,
    private readonly rows: ShownRows,
    private readonly changed: () => void,
  ) {}

  /** Changes whenever the selection changed. */
  get version(): number {
    return this.versionValue;
  }

  get count(): number {
    return this.size;
  }

  has(slot: number): boolean {
    return slot >= 0 && this.selected[slot] === 1;
  }

  /** Plain click: this row only. */
  selectOnly(index: number): void {
    const slot = this.rows.slotAt(index);
    if (slot < 0) return;
    this.reset();
    this.mark(slot);
    this.anchor = slot;
    this.notify();
  }

  /** Ctrl/Meta click. */
  toggleAt(index: number): void {
    const slot = this.rows.slotAt(index);
    if (slot < 0) return;
    if (this.selected[slot]) {
      this.forget(slot);
    } else {
      if (this.size === 0) this.anchor = slot;
      this.mark(slot);
    }
    this.notify();
  }

  /** Shift click: the rows between the row where the selection started and this one. */
  selectRangeTo(index: number): void {
    const from = this.anchor >= 0 && this.selected[this.anchor] ? this.rows.indexOfSlot(this.anchor) : -1;
    if (from < 0) {
      this.selectOnly(index);
      return;
    }
    const anchor = this.anchor;
    this.reset();
    const to = Math.max(0, Math.min(index, this.rows.count() - 1));
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) this.mark(this.rows.slotAt(i));
    this.anchor = anchor;
    this.focus = this.rows.slotAt(to);
    this.notify();
  }

  /** Ctrl/Meta+A: every shown row. */
  selectAll(): void {
    const n = this.rows.count();
    this.reset();
    for (let i = 0; i < n; i++) this.mark(this.rows.slotAt(i));
    if (n > 0) this.anchor = this.rows.slotAt(0);
    this.notify();
  }

  /**
   * Arrow keys move a single selection; answers the new row index (to scroll it into view), or
   * -1 when there was not exactly one selected row.
   */
  move(delta: number): number {
    if (this.size !== 1) return -1;
    const from = this.rows.indexOfSlot(this.singleSlot());
    if (from < 0) return -1;
    const to = Math.max(0, Math.min(from + delta, this.rows.count() - 1));
    this.selectOnly(to);
    return to;
  }

  clear(): void {
    if (this.size === 0) return;
    this.reset();
    this.notify();
  }

  /** Selected items in view order (for export and delete). */
  items(): CompactItem[] {
    const out: CompactItem[] = [];
    if (this.size === 0) return out;
    const n = this.rows.count();
    for (let i = 0; i < n; i++) {
      const slot = this.rows.slotAt(i);
      if (this.selected[slot]) out.push(this.slots.items[slot]!);
    }
    return out;
  }

  /** The selected item when exactly one is selected (the details panel shows it). */
  get single(): CompactItem | undefined {
    return this.size === 1 ? this.slots.items[this.singleSlot()] : undefined;
  }

  // ---- told by the store: these leave the notification to it, so that listeners never see a half-done write

  /**
   * Told before items are added. Spec 001 §4 auto-selects a new item when exactly one non-mocked
   * item was selected; it does so only when that item was the newest shown, as a reader watching
   * the live edge expects. Applied to any selected row, the details panel of an older request a
   * user is reading (or about to mock with one click) jumped to each arriving item, several times
   * a second under real traffic.
   */
  beforeAdding(): void {
    this.following = false;
    if (this.size !== 1) return;
    const item = this.slots.items[this.singleSlot()];
    this.following = item !== undefined && !item.isMocked && item.num >= this.newestShown();
  }

  /** Items were added: when following (see `beforeAdding`), the newest shown one added becomes the selection. */
  followNewItems(added: readonly number[]): void {
    const { items, matches } = this.slots;
    let newest = -1;
    let newestNum = this.newestShownNum ?? Number.NEGATIVE_INFINITY;
    for (const slot of added) {
      const item = items[slot];
      if (!matches[slot] || item === undefined || item.num <= newestNum) continue;
      newest = slot;
      newestNum = item.num;
    }
    if (this.newestShownNum !== null) this.newestShownNum = newestNum;
    const follow = this.following;
    this.following = false;
    if (!follow || newest < 0 || this.size !== 1) return;
    this.reset();
    this.mark(newest);
    this.anchor = newest;
    this.versionValue++;
  }

  /** Items were deleted or a filter landed: the newest shown item is found again when next needed. */
  shownChanged(): void {
    this.newestShownNum = null;
  }

  /** A slot was freed or hidden by the filter. */
  forget(slot: number): void {
    if (!this.selected[slot]) return;
    this.selected[slot] = 0;
    this.size--;
    if (this.anchor === slot) this.anchor = -1;
    this.versionValue++;
  }

  /** A new filter landed: selected items it hides are no longer selected. */
  forgetHidden(): void {
    this.shownChanged();
    if (this.size === 0) return;
    const { matches, slotCount } = this.slots;
    for (let slot = 0; slot < slotCount; slot++) {
      if (this.selected[slot] && !matches[slot]) this.forget(slot);
    }
  }

  /** The store was emptied. */
  forgetAll(): void {
    this.newestShownNum = Number.NEGATIVE_INFINITY;
    this.selected = new Uint8Array(0);
    if (this.size > 0) this.versionValue++;
    this.size = 0;
    this.anchor = this.focus = -1;
  }

  // ---- internals

  private newestShown(): number {
    if (this.newestShownNum === null) {
      let newest = Number.NEGATIVE_INFINITY;
      const n = this.rows.count();
      for (let i = 0; i < n; i++) newest = Math.max(newest, this.slots.items[this.rows.slotAt(i)]?.num ?? newest);
      this.newestShownNum = newest;
    }
    return this.newestShownNum;
  }

  private singleSlot(): number {
    if (this.focus >= 0 && this.selected[this.focus]) return this.focus;
    const found = this.selected.indexOf(1);
    this.focus = found;
    return found;
  }

  private mark(slot: number): void {
    if (this.selected[slot]) return;
    if (slot >= this.selected.length) this.grow();
    this.selected[slot] = 1;
    this.size++;
    this.focus = slot;
  }

  /** The selection's column follows the slot table's capacity as it grows. */
  private grow(): void {
    const selected = new Uint8Array(this.slots.capacity);
    selected.set(this.selected);
    this.selected = selected;
  }

  private reset(): void {
    if (this.size > 0) this.selected.fill(0);
    this.size = 0;
    this.anchor = this.focus = -1;
  }

  private notify(): void {
    this.versionValue++;
    this.changed();
  }
}
