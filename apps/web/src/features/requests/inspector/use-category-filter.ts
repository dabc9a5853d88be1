import { compileFilter, type ItemCategory, type ItemPredicate } from '@spyglass/protocol';
import { useEffect } from 'react';
import type { ItemStore } from '../store/item-store';

/** One predicate per category for the page's life: the store recomputes only when it changes. */
const predicates = new Map<ItemCategory, ItemPredicate | null>();

function categoryPredicate(category: ItemCategory): ItemPredicate | null {
  let predicate = predicates.get(category);
  if (predicate === undefined) {
    predicate = category === 'all' ? null : compileFilter({ type: 'category', category });
    predicates.set(category, predicate);
  }
  return predicate;
}

/** Shows the items of the filter bar's category (computed in slices by the store). */
export function useCategoryFilter(store: ItemStore, category: ItemCategory): void {
  useEffect(() => store.setFilter(categoryPredicate(category)), [store, category]);
}
