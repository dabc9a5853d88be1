import { FieldValueIndex, type CompactItem, type PowerValueSource, type SearchTag, type SuggestOptions } from '@spyglass/protocol';
import type { ListStore } from '../store/list-store';
import { DEFAULT_SLICE_MS, runSliced, sharedSliceHost, type SliceHost } from '../store/time-slicer';

/** Items indexed between two looks at the clock while catching up with a store's earlier items. */
const CATCH_UP_CHUNK = 2048;

/**
 * The values seen per searchable field (spec 001 §3) in one store, for the search bar's
 * suggestions. It follows the store item by item as batches land, so a keystroke asks an index of
 * a few thousand distinct values instead of rescanning a million items. Items the store held
 * before it was attached are indexed in time slices.
 */
export class StoreFieldValues implements PowerValueSource {
  private readonly index = new FieldValueIndex();
  /** Items held at attach time not yet indexed; removals meanwhile are skipped, not double-counted. */
  private backlog: readonly CompactItem[] = [];
  private removedDuringCatchUp: Set<CompactItem> | null = null;
  private changes = 0;
  private readonly listeners = new Set<() => void>();

  constructor(store: ListStore, host: SliceHost = sharedSliceHost(), sliceMs = DEFAULT_SLICE_MS) {
    store.observeItems({
      added: (items) => {
        this.index.addAll(items);
        this.changed();
      },
      removed: (items) => {
        if (this.removedDuringCatchUp) for (const item of items) this.removedDuringCatchUp.add(item);
        for (const item of items) this.index.remove(item);
        this.changed();
      },
      cleared: () => {
        this.backlog = [];
        this.removedDuringCatchUp = null;
        this.index.clear();
        this.changed();
      },
    });
    if (store.totalCount > 0) this.catchUp([...store.allItems()], host, sliceMs);
  }

  /** True until the items held before attaching are indexed. */
  get catchingUp(): boolean {
    return this.removedDuringCatchUp !== null;
  }

  /** Changes whenever the values may have changed (an open dropdown re-asks for its suggestions). */
  get version(): number {
    return this.changes;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  suggest(input: string, options?: SuggestOptions): SearchTag[] {
    return this.index.suggest(input, options);
  }

  /** The values a power filter's key suggests (status codes, methods, hosts, content types). */
  valuesOf(key: Parameters<PowerValueSource['valuesOf']>[0]): readonly string[] {
    return this.index.valuesOf(key);
  }

  private catchUp(items: readonly CompactItem[], host: SliceHost, sliceMs: number): void {
    this.backlog = items;
    const removed = new Set<CompactItem>();
    this.removedDuringCatchUp = removed;
    runSliced(this.indexBacklog(removed), () => {
      if (this.removedDuringCatchUp === removed) this.removedDuringCatchUp = null;
      this.backlog = [];
      this.changed();
    }, host, sliceMs);
  }

  private changed(): void {
    this.changes++;
    for (const listener of this.listeners) listener();
  }

  private *indexBacklog(removed: ReadonlySet<CompactItem>): Generator<void, void> {
    // `backlog` is re-read each step: clearing the store empties it and ends the loop.
    for (let i = 0; i < this.backlog.length; i++) {
      const item = this.backlog[i]!;
      if (!removed.has(item)) this.index.add(item);
      if (i % CATCH_UP_CHUNK === CATCH_UP_CHUNK - 1) yield;
    }
  }
}

const perStore = new WeakMap<ListStore, StoreFieldValues>();

/** The field values of a store, attached on first use and kept for the store's life. */
export function fieldValuesOf(store: ListStore): StoreFieldValues {
  let values = perStore.get(store);
  if (!values) {
    values = new StoreFieldValues(store);
    perStore.set(store, values);
  }
  return values;
}
