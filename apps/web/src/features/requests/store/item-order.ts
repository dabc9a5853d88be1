import { itemComparator, type CompactItem, type ItemSort, type ItemSortColumn } from '@spyglass/protocol';

/** Ascending order of two items. The list store applies the direction itself (see `ListStore.setOrder`). */
export type ItemComparator = (a: CompactItem, b: CompactItem) => number;

/** The spec's default order field (spec 001 §4: createdAt, shown descending). */
export const compareCreatedAt: ItemComparator = itemComparator({ column: 'createdAt', direction: 'asc' });

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
