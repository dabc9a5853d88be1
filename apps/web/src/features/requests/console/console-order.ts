import { useLayoutEffect } from 'react';
import { compareCreatedAt } from '../store/item-order';
import type { ListStore } from '../store/list-store';
import { orderFor } from '../store/item-order';

/** Another createdAt comparator (`orderFor`), in the same order as the store's default one. */
const createdAtByColumn = orderFor({ column: 'createdAt', direction: 'asc' }).compare;

/**
 * The console lists items oldest first (spec 001 'Console view') from the same store as the
 * table. It reads the store backwards when the store is descending, so the two views share one
 * order index; only a table sorted by another column makes the console re-sort (in slices).
 * Answers the function that gives that column's order back, or null when nothing changed.
 */
export function applyConsoleOrder(store: ListStore): (() => void) | null {
  const previous = store.order;
  if (previous === compareCreatedAt || previous === createdAtByColumn) return null;
  // The store's default comparator, the one the table's default sort uses: going back costs nothing.
  store.setOrder(compareCreatedAt, store.isDescending);
  return () => store.setOrder(previous, store.isDescending);
}

/** `applyConsoleOrder` for as long as the console is shown. */
export function useCreatedAtOrder(store: ListStore): void {
  useLayoutEffect(() => applyConsoleOrder(store) ?? undefined, [store]);
}

/** Row index of the console (oldest first) ⇄ row index of the store, in either direction. */
export function consoleToStoreIndex(index: number, count: number, storeDescending: boolean): number {
  return storeDescending ? count - 1 - index : index;
}
