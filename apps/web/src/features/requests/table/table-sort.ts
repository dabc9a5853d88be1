import type { ItemSort } from '@spyglass/protocol';
import { orderFor } from '../store/item-order';
import { compareCreatedAt, type ItemComparator } from '../store/item-order';

/**
 * The store's order for a sort of the table. createdAt uses the store's own default comparator,
 * so that the default sort (createdAt descending) starts no re-sort of what is already in order.
 */
export function storeOrder(sort: ItemSort): { compare: ItemComparator; descending: boolean } {
  if (sort.column === 'createdAt') return { compare: compareCreatedAt, descending: sort.direction === 'desc' };
  return orderFor(sort);
}
