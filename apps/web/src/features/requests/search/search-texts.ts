import { SearchTextColumn } from '@spyglass/protocol';
import type { ItemStore } from '../store/item-store';

const columns = new WeakMap<ItemStore, SearchTextColumn>();

/**
 * The free-text search texts of a store's items, kept by slot (the store passes the slot as the
 * filter's index) and dropped by the store when it replaces or frees a slot. One per store for
 * its whole life, so a second search reuses the texts the first one built.
 */
export function searchTextsOf(store: ItemStore): SearchTextColumn {
  let column = columns.get(store);
  if (!column) {
    column = new SearchTextColumn();
    store.observeSlots(column);
    columns.set(store, column);
  }
  return column;
}
