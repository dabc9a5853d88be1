import { initialSearchState, searchReducer, type SearchAction, type SearchState } from '@spyglass/protocol';
import { useReducer, type Dispatch } from 'react';

/** What `SearchBar` edits and `useListFilter` reads. */
export interface SearchController {
  state: SearchState;
  dispatch: Dispatch<SearchAction>;
}

/** The search bar's state (spec 001 §4 'Search'): the protocol's reducer, starting empty. */
export function useSearch(): SearchController {
  const [state, dispatch] = useReducer(searchReducer, undefined, () => initialSearchState());
  return { state, dispatch };
}
