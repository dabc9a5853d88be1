import { compileFilter, listFilter, type ItemCategory, type ItemFilter, type SearchState } from '@spyglass/protocol';
import type { ListStore } from '../store/list-store';
import { searchTextsOf } from './search-texts';

/** True when the filter lets every item through: the store then drops its filter pass altogether. */
export function passesEverything(filter: ItemFilter): boolean {
  switch (filter.type) {
    case 'category': return filter.category === 'all';
    case 'text': return filter.value === '';
    case 'field': return false;
    case 'dateRange': return filter.from === null && filter.to === null;
    case 'all': return filter.filters.every(passesEverything);
    case 'not':
    case 'compare':
    case 'glob':
    case 'is':
    case 'regex':
      return false;
  }
}

/**
 * Keeps a store's filter in step with the filter bar and the search bar. The store recomputes in
 * time slices and drops a result overtaken by a newer filter, so every keystroke may ask for a
 * new filter without blocking input; what this adds is asking only when the filter itself
 * changed (opening the suggestions or moving through them changes the search state, not the
 * filter).
 */
export class ListFilterBinding {
  private key: string | null = null;

  constructor(private readonly store: ListStore) {
    // From now on the store builds the search texts as items arrive, ready for the first search.
    searchTextsOf(store);
  }

  /** Answers the filter now asked of the store. */
  apply(category: ItemCategory, search: SearchState): ItemFilter {
    const filter = listFilter(category, search);
    const key = JSON.stringify(filter);
    if (key !== this.key) {
      this.key = key;
      this.store.setFilter(passesEverything(filter) ? null : compileFilter(filter, { texts: searchTextsOf(this.store) }));
    }
    return filter;
  }
}
