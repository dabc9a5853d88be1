import { SearchTextColumn } from '@spyglass/protocol';
import type { ListStore } from '../store/list-store';

const columns = new WeakMap<ListStore, SearchTextColumn>();

/**
 * The free-text search texts of a store's items, kept by slot (the store passes the slot as the
 * filter's index), built as the store writes items and dropped when it frees a slot. One per
 * store for its whole life. Attach it before the store fills (as `createRequestList` and
 * `ListFilterBinding` do): items written before it was attached get their texts on first search.
 */
export function searchTextsOf(store: ListStore): SearchTextColumn {
  let column = columns.get(store);
  if (!column) {
    column = new SearchTextColumn();
    store.observeSlots(column);
    columns.set(store, column);
  }
  return column;
}
