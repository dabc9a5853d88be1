import { useLayoutEffect } from 'react';
import { compareCreatedAt, type ItemStore } from '../store/item-store';
import { orderFor } from '../store/item-order';

/** The createdAt comparator the table uses for its default sort: switching to it costs nothing. */
const createdAtCompare = orderFor({ column: 'createdAt', direction: 'asc' }).compare;

/**
 * The console lists items oldest first (spec 001 'Console view') from the same store as the
 * table. It reads the store backwards when the store is descending, so the two views share one
 * order index; only a table sorted by another column makes the console re-sort (in slices), and
 * that column's order is given back when the console goes.
 */
export function useCreatedAtOrder(store: ItemStore): void {
  useLayoutEffect(() => {
    const previous = store.order;
    if (previous === compareCreatedAt || previous === createdAtCompare) return;
    store.setOrder(createdAtCompare, store.isDescending);
    return () => store.setOrder(previous, store.isDescending);
  }, [store]);
}

/** Row index of the console (oldest first) ⇄ row index of the store, in either direction. */
export function consoleToStoreIndex(index: number, count: number, storeDescending: boolean): number {
  return storeDescending ? count - 1 - index : index;
}
