import { useSyncExternalStore } from 'react';
import type { CompactItem } from '@spyglass/protocol';
import type { ItemStore } from './item-store';

/*
 * Slices of the item store for components. Each hook re-renders its component only when its own
 * answer changes: a row re-renders when its item is replaced or its selection flips, not when
 * any other row changes.
 */

/** Number of shown rows ('Requests: N'). */
export function useRowCount(store: ItemStore): number {
  return useSyncExternalStore(store.subscribe, () => store.count, () => store.count);
}

/** Number of held items ('Total: M'). */
export function useTotalCount(store: ItemStore): number {
  return useSyncExternalStore(store.subscribe, () => store.totalCount, () => store.totalCount);
}

export function useRow(store: ItemStore, index: number): CompactItem | undefined {
  return useSyncExternalStore(store.subscribe, () => store.rowAt(index), () => store.rowAt(index));
}

export function useRowSelected(store: ItemStore, index: number): boolean {
  return useSyncExternalStore(store.subscribe, () => store.isSelectedAt(index), () => store.isSelectedAt(index));
}

/** 'Selected X of N requests'. */
export function useSelectionCount(store: ItemStore): number {
  return useSyncExternalStore(store.subscribe, () => store.selectionCount, () => store.selectionCount);
}

/** The item the details panel shows: the selected one when exactly one is. */
export function useSingleSelected(store: ItemStore): CompactItem | undefined {
  return useSyncExternalStore(store.subscribe, () => store.singleSelected, () => store.singleSelected);
}

/** True while a new filter or order is computed in the background. */
export function useRecomputing(store: ItemStore): boolean {
  return useSyncExternalStore(store.subscribe, () => store.isRecomputing, () => store.isRecomputing);
}

/** Changes with any change of rows or order: for views that re-read several rows at once. */
export function useStoreVersion(store: ItemStore): number {
  return useSyncExternalStore(store.subscribe, () => store.version, () => store.version);
}

/** Changes with any change of the selection. */
export function useSelectionVersion(store: ItemStore): number {
  return useSyncExternalStore(store.subscribe, () => store.selectionVersion, () => store.selectionVersion);
}
