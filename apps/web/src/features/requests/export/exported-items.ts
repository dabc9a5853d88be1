import type { CompactItem } from '@spyglass/protocol';
import type { ListStore } from '../store/list-store';

/**
 * What Export takes from the list (issue 5: export of the selection or of the filtered list): the
 * selected rows when there are any, else every shown row, in view order.
 */
export function exportedItems(store: ListStore): CompactItem[] {
  return store.selectionCount > 0 ? store.selectedItems() : Array.from(store.rows());
}
