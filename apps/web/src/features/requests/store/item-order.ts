import { itemComparator, type ItemSort, type ItemSortColumn } from '@spyglass/protocol';
import type { ItemComparator } from './item-store';

const ascending = new Map<ItemSortColumn, ItemComparator>();

/**
 * The store's order for a column sort of the table: the column's ascending comparator, one
 * function per column for the page's life (the store re-sorts only when the comparator changes,
 * so toggling the direction of the same column costs nothing), and the direction.
 */
export function orderFor(sort: ItemSort): { compare: ItemComparator; descending: boolean } {
  let compare = ascending.get(sort.column);
  if (!compare) {
    compare = itemComparator({ column: sort.column, direction: 'asc' });
    ascending.set(sort.column, compare);
  }
  return { compare, descending: sort.direction === 'desc' };
}
