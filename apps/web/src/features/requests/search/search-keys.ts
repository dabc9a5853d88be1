import type { PowerSuggestion, SearchAction, SearchState } from '@spyglass/protocol';

/**
 * A line of the suggestions dropdown: a whole tag (a field value or a power filter) or a power
 * filter's key, which completes the input and keeps the dropdown open for its values.
 */
export type BarSuggestion = PowerSuggestion;

/** What picking a suggestion tells the search state. */
export function pickAction(suggestion: BarSuggestion): SearchAction {
  return suggestion.type === 'key' ? { type: 'complete', value: suggestion.input } : { type: 'pick', suggestion: suggestion.tag };
}

export interface KeyOutcome {
  /** What to tell the search state, if anything. */
  action: SearchAction | null;
  /** The highlighted suggestion afterwards (-1: none). */
  active: number;
}

/**
 * The keys of the search input (spec 001 §4 'Search'): Enter commits the typed text, or picks the
 * highlighted suggestion; Backspace on an empty input removes the last tag; Escape hides the
 * suggestions; the arrows move through them (and open them). Answers null for a key the input
 * leaves alone, so that it reaches the screen (Escape with nothing open closes the details).
 */
export function searchKeyDown(key: string, state: SearchState, suggestions: readonly BarSuggestion[], active: number): KeyOutcome | null {
  const open = state.suggestionsOpen && suggestions.length > 0;
  switch (key) {
    case 'ArrowDown':
      if (!open) return { action: { type: 'input', value: state.input }, active: suggestions.length > 0 ? 0 : -1 };
      return { action: null, active: (active + 1) % suggestions.length };
    case 'ArrowUp':
      if (!open) return null;
      return { action: null, active: active <= 0 ? suggestions.length - 1 : active - 1 };
    case 'Enter': {
      const picked = open && active >= 0 ? suggestions[active] : undefined;
      return { action: picked ? pickAction(picked) : { type: 'commit' }, active: -1 };
    }
    case 'Escape':
      return state.suggestionsOpen ? { action: { type: 'escape' }, active: -1 } : null;
    case 'Backspace':
      return state.input === '' && state.tags.length > 0 ? { action: { type: 'backspace' }, active: -1 } : null;
    default:
      return null;
  }
}
