import { describe, expect, it } from 'vitest';
import { fieldTag, freeTextTag, initialSearchState, searchReducer, type SearchState, type SearchTag } from '@spyglass/protocol';
import { searchKeyDown, type BarSuggestion } from './search-keys';

const NOW = Date.UTC(2026, 10, 23, 12);
const suggestions: BarSuggestion[] = [fieldTag('method', 'POST'), fieldTag('url', 'https://api.example.com/posts'), fieldTag('statusCode', '404')]
  .map((tag) => ({ type: 'value', tag }));

function typed(input: string, tags: SearchTag[] = []): SearchState {
  return { ...searchReducer(initialSearchState(NOW), { type: 'input', value: input }), tags };
}

/** Plays keys on the bar as the input does: state and highlighted suggestion. */
function press(state: SearchState, keys: string[], offered = suggestions): { state: SearchState; active: number; unhandled: string[] } {
  let active = -1;
  const unhandled: string[] = [];
  for (const key of keys) {
    const outcome = searchKeyDown(key, state, offered, active);
    if (!outcome) {
      unhandled.push(key);
      continue;
    }
    if (outcome.action) state = searchReducer(state, outcome.action);
    active = outcome.active;
  }
  return { state, active, unhandled };
}

describe('keys of the search input (spec 001 §4 Search)', () => {
  it('Enter commits the typed text as a free-text tag and clears the input', () => {
    const { state } = press(typed('timeout'), ['Enter']);
    expect(state.tags).toEqual([freeTextTag('timeout')]);
    expect(state.input).toBe('');
    expect(state.suggestionsOpen).toBe(false);
  });

  it('arrows move through the suggestions, wrapping, and Enter picks the highlighted one instead of the text', () => {
    expect(press(typed('po'), ['ArrowDown']).active).toBe(0);
    expect(press(typed('po'), ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown']).active).toBe(0);
    expect(press(typed('po'), ['ArrowUp']).active).toBe(2);
    const { state } = press(typed('po', [freeTextTag('login')]), ['ArrowDown', 'ArrowDown', 'Enter']);
    expect(state.tags).toEqual([freeTextTag('login'), fieldTag('url', 'https://api.example.com/posts')]);
    expect(state.input).toBe('');
  });

  it('ArrowDown opens closed suggestions; ArrowUp and Escape with nothing open reach the screen', () => {
    const closed = { ...typed(''), suggestionsOpen: false };
    const opened = press(closed, ['ArrowDown']);
    expect(opened.state.suggestionsOpen).toBe(true);
    expect(opened.active).toBe(0);
    expect(press(closed, ['ArrowUp', 'Escape']).unhandled).toEqual(['ArrowUp', 'Escape']);
  });

  it('Escape hides the suggestions and keeps the text', () => {
    const { state, active } = press(typed('po'), ['ArrowDown', 'Escape']);
    expect(state.suggestionsOpen).toBe(false);
    expect(state.input).toBe('po');
    expect(active).toBe(-1);
  });

  it('Backspace removes the last tag only on an empty input', () => {
    const tags = [fieldTag('method', 'GET'), freeTextTag('users')];
    expect(press(typed('x', tags), ['Backspace']).unhandled).toEqual(['Backspace']);
    const { state } = press(typed('', tags), ['Backspace', 'Backspace', 'Backspace']);
    expect(state.tags).toEqual([]);
    expect(press(typed(''), ['Backspace']).unhandled).toEqual(['Backspace']);
  });

  it('Enter on a power filter key completes the input and keeps the suggestions open', () => {
    const keys: BarSuggestion[] = [{ type: 'key', key: 'status-code', input: 'orders status-code:', help: 'Status code' }];
    const { state } = press(typed('orders st'), ['ArrowDown', 'Enter'], keys);
    expect(state).toMatchObject({ input: 'orders status-code:', suggestionsOpen: true, tags: [] });
  });

  it('Enter with no suggestions commits; other keys are left to the input', () => {
    expect(press(typed('a "quoted" <b>'), ['Enter'], []).state.tags).toEqual([freeTextTag('a "quoted" <b>')]);
    expect(press(typed('abc'), ['a', 'Tab', 'Home']).unhandled).toEqual(['a', 'Tab', 'Home']);
  });
});
