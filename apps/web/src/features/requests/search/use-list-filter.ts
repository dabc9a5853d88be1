import { listFilter, type ItemCategory, type SearchState } from '@spyglass/protocol';
import { useEffect, useMemo } from 'react';
import type { ListStore } from '../store/list-store';
import { ListFilterBinding, passesEverything } from './list-filter';

/**
 * Filters the store by the filter bar's category and the search bar (spec 001 §5: every filter
 * must match). Answers true while a category, tag or date range is active: the screen then shows 'No Search Results' rather than 'No Requests yet'.
 */
export function useListFilter(store: ListStore, category: ItemCategory, search: SearchState): boolean {
  const binding = useMemo(() => new ListFilterBinding(store), [store]);
  // After paint, so the keystroke that changed the search shows before any filtering starts.
  useEffect(() => {
    binding.apply(category, search);
  }, [binding, category, search]);
  return !passesEverything(listFilter(category, search));
}
