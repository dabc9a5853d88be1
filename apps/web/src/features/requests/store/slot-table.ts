import type { CompactItem } from '@spyglass/protocol';
import { IdIndex } from './id-index';

/**
 * Where the list store keeps its items: one slot per item (id → slot) and columns indexed by slot
 * (the item, its arrival number, whether it passes the filter), so that the store's ordered
 * indices are arrays of slot numbers. A freed slot is reused by a later item, except while a
 * recompute works on a snapshot (`holdFreed`): a slot in the snapshot then means one item throughout.
 */
export class SlotTable {
  /** The item in each slot; undefined in a free one. */
  items: (CompactItem | undefined)[] = [];
  /** Arrival number of each slot's item: items the comparator finds equal keep a stable place. */
  seq: Int32Array = new Int32Array(0);
  /** 1 where the slot's item passes the store's filter (replaced whole when a new filter lands). */
  matches: Uint8Array = new Uint8Array(0);
  /** Length of the typed columns. */
  capacity = 0;
  /** Slots handed out so far, free ones included: the used part of the columns. */
  slotCount = 0;
  private nextSeq = 0;
  private readonly ids = new IdIndex();
  private free: number[] = [];
  /** Slots freed while freed slots are held back (see `holdFreed`). */
  private held: number[] | null = null;

  /** Items held. */
  get size(): number {
    return this.ids.size;
  }

  slotOf(id: string): number | undefined {
    return this.ids.get(id);
  }

  /** Puts a new item in a free slot (its arrival number the next one) and answers the slot. */
  allocate(item: CompactItem): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.slotCount++;
      if (slot >= this.capacity) this.grow(slot + 1);
    }
    this.items[slot] = item;
    this.seq[slot] = this.nextSeq++;
    this.ids.set(item.id, slot);
    return slot;
  }

  /** Empties a slot and answers the item that was in it. */
  release(slot: number): CompactItem {
    const item = this.items[slot]!;
    this.ids.delete(item.id);
    this.items[slot] = undefined;
    this.matches[slot] = 0;
    (this.held ?? this.free).push(slot);
    return item;
  }

  /** Freed slots are not reused until `reuseHeld` (a recompute started on a snapshot). */
  holdFreed(): void {
    this.held ??= [];
  }

  /** The recompute ended: the slots freed meanwhile may be reused. */
  reuseHeld(): void {
    if (this.held === null) return;
    this.free.push(...this.held);
    this.held = null;
  }

  clear(): void {
    this.items = [];
    this.capacity = 0;
    this.seq = new Int32Array(0);
    this.matches = new Uint8Array(0);
    this.slotCount = 0;
    this.nextSeq = 0;
    this.ids.clear();
    this.free = [];
    this.held = null;
  }

  private grow(needed: number): void {
    let capacity = Math.max(1024, this.capacity);
    while (capacity < needed) capacity *= 2;
    const seq = new Int32Array(capacity);
    seq.set(this.seq);
    const matches = new Uint8Array(capacity);
    matches.set(this.matches);
    this.seq = seq;
    this.matches = matches;
    this.capacity = capacity;
  }
}
