import { initialSearchState, searchReducer, type SearchAction, type SearchState } from '@spyglass/protocol';
import { useCallback, useReducer, type Dispatch } from 'react';

/** What `SearchBar` edits and `useListFilter` reads. */
export interface SearchController {
  state: SearchState;
  dispatch: Dispatch<SearchAction>;
}

/** The search bar's controller, and a way to put back a search set aside (the guided tour's whole list). */
export interface ScreenSearch extends SearchController {
  restore(state: SearchState): void;
}

/** Puts back a search set aside (the guided tour's whole list, use-tour-whole-list.ts). */
type Restore = { type: 'restore'; state: SearchState };

const reducer = (state: SearchState, action: SearchAction | Restore): SearchState =>
  (action.type === 'restore' ? action.state : searchReducer(state, action));

/** The search bar's state (spec 001 §4 'Search'): the protocol's reducer, starting empty. */
export function useSearch(): ScreenSearch {
  const [state, dispatch] = useReducer(reducer, undefined, () => initialSearchState());
  const restore = useCallback((saved: SearchState) => dispatch({ type: 'restore', state: { ...saved, suggestionsOpen: false } }), []);
  return { state, dispatch, restore };
}
