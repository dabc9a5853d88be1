import { useSyncExternalStore } from 'react';
import type { CompactItem } from '@spyglass/protocol';
import type { ListStore } from './list-store';

/*
 * Slices of the list store for components. Each hook re-renders its component only when its own
 * answer changes: a row re-renders when its item is replaced or its selection flips, not when
 * any other row changes.
 */

/** Number of shown rows ('Requests: N'). */
export function useRowCount(store: ListStore): number {
  return useSyncExternalStore(store.subscribe, () => store.count, () => store.count);
}

/** Number of held items ('Total: M'). */
export function useTotalCount(store: ListStore): number {
  return useSyncExternalStore(store.subscribe, () => store.totalCount, () => store.totalCount);
}

export function useRow(store: ListStore, index: number): CompactItem | undefined {
  return useSyncExternalStore(store.subscribe, () => store.rowAt(index), () => store.rowAt(index));
}

export function useRowSelected(store: ListStore, index: number): boolean {
  return useSyncExternalStore(store.subscribe, () => store.isSelectedAt(index), () => store.isSelectedAt(index));
}

/** Changes with any change of the selection: for views that re-read several rows' selection at once. */
export function useSelectionVersion(store: ListStore): number {
  return useSyncExternalStore(store.subscribe, () => store.selectionVersion, () => store.selectionVersion);
}

/** 'Selected X of N requests'. */
export function useSelectionCount(store: ListStore): number {
  return useSyncExternalStore(store.subscribe, () => store.selectionCount, () => store.selectionCount);
}

/** The item the details panel shows: the selected one when exactly one is. */
export function useSingleSelected(store: ListStore): CompactItem | undefined {
  return useSyncExternalStore(store.subscribe, () => store.singleSelected, () => store.singleSelected);
}

/** True while a new filter or order is computed in the background. */
export function useRecomputing(store: ListStore): boolean {
  return useSyncExternalStore(store.subscribe, () => store.isRecomputing, () => store.isRecomputing);
}

/** Changes with any change of rows or order: for views that re-read several rows at once. */
export function useStoreVersion(store: ListStore): number {
  return useSyncExternalStore(store.subscribe, () => store.version, () => store.version);
}
