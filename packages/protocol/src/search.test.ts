import { describe, expect, it } from 'vitest';
import { compileFilter, explain, matches } from './filters';
import { generateItems, logItem, networkItem } from './item-fixtures';
import {
  activeTags, fieldTag, FieldValueIndex, freeTextTag, initialSearchState, listFilter, SearchTag, searchFilter, searchReducer,
  type SearchAction, type SearchState,
} from './search';

const NOW = new Date(2026, 10, 23, 14, 5, 30).getTime();
const run = (...actions: SearchAction[]) => actions.reduce<SearchState>(searchReducer, initialSearchState(NOW));

describe('search tags (spec 001 §4 Search)', () => {
  it('typing acts as a free-text tag, Enter commits it and clears the input', () => {
    const typing = run({ type: 'input', value: 'timeout' });
    expect(typing.tags).toEqual([]);
    expect(typing.suggestionsOpen).toBe(true);
    expect(activeTags(typing)).toEqual([freeTextTag('timeout')]);

    const committed = searchReducer(typing, { type: 'commit' });
    expect(committed.input).toBe('');
    expect(committed.tags).toEqual([freeTextTag('timeout')]);
    expect(activeTags(committed)).toEqual([freeTextTag('timeout')]);
  });

  it('Enter on blank input adds nothing and the same tag is not added twice', () => {
    expect(run({ type: 'input', value: '   ' }, { type: 'commit' }).tags).toEqual([]);
    expect(run({ type: 'input', value: 'a' }, { type: 'commit' }, { type: 'input', value: 'a' }, { type: 'commit' }).tags).toHaveLength(1);
  });

  it('Backspace removes the last tag only when the input is empty', () => {
    const two = run({ type: 'input', value: 'a' }, { type: 'commit' }, { type: 'input', value: 'b' }, { type: 'commit' });
    expect(searchReducer(two, { type: 'backspace' }).tags).toEqual([freeTextTag('a')]);
    const typing = searchReducer(two, { type: 'input', value: 'c' });
    expect(searchReducer(typing, { type: 'backspace' })).toBe(typing);
    expect(searchReducer(initialSearchState(NOW), { type: 'backspace' }).tags).toEqual([]);
  });

  it('picking a suggestion replaces the free-text tag being typed', () => {
    const picked = run({ type: 'input', value: 'POS' }, { type: 'pick', suggestion: fieldTag('method', 'POST') });
    expect(picked.input).toBe('');
    expect(picked.suggestionsOpen).toBe(false);
    expect(activeTags(picked)).toEqual([{
      field: 'method', fieldLabel: 'Method', path: 'details.request.method', value: 'POST', display: 'Method: POST', isFreeText: false,
    }]);
    expect(SearchTag.parse(picked.tags[0])).toEqual(picked.tags[0]);
  });

  it('Escape hides the suggestions, clear empties the bar, tags can be removed one by one', () => {
    const open = run({ type: 'input', value: 'x' });
    expect(searchReducer(open, { type: 'escape' }).suggestionsOpen).toBe(false);
    const tagged = run({ type: 'input', value: 'a' }, { type: 'commit' }, { type: 'input', value: 'b' }, { type: 'commit' }, { type: 'input', value: 'c' });
    expect(searchReducer(tagged, { type: 'removeTag', index: 0 }).tags).toEqual([freeTextTag('b')]);
    const cleared = searchReducer(tagged, { type: 'clear' });
    expect(activeTags(cleared)).toEqual([]);
  });

  it('the date range opens on the last 3 days and resets to them', () => {
    const state = run({ type: 'toggleDateRange' }, { type: 'setDateRange', from: '2020-01-01T00:00' });
    expect(state.dateRange).toEqual({ enabled: true, from: '2020-01-01T00:00', to: '2026-11-23T14:05' });
    const later = new Date(2026, 10, 24, 9, 0).getTime();
    expect(searchReducer(state, { type: 'resetDateRange', now: later }).dateRange)
      .toEqual({ enabled: true, from: '2026-11-21T09:00', to: '2026-11-24T09:00' });
  });
});

describe('the filter of the search bar', () => {
  const items = [
    networkItem({ num: 1, method: 'POST', url: 'https://api.example.com/login', status: 401, createdAt: '2026-11-23T10:00:00.000Z' }),
    networkItem({ num: 2, method: 'GET', url: 'https://api.example.com/login/help', status: 200, createdAt: '2026-11-23T11:00:00.000Z' }),
    logItem({ num: 3, message: 'login failed: 401', level: 'error', createdAt: '2026-11-23T12:00:00.000Z' }),
    logItem({ num: 4, message: 'Login OK', level: 'info', createdAt: '2026-11-10T12:00:00.000Z' }),
  ];
  const nums = (state: SearchState, category: Parameters<typeof listFilter>[0] = 'all') =>
    items.filter(compileFilter(listFilter(category, state))).map((i) => i.num);

  it('needs every tag, the category and the date range to match', () => {
    const login = run({ type: 'input', value: 'login' }, { type: 'commit' });
    expect(nums(login)).toEqual([1, 2, 3, 4]);
    expect(nums(login, 'log')).toEqual([3, 4]);
    const with401 = searchReducer(login, { type: 'pick', suggestion: fieldTag('statusCode', '401') });
    expect(nums(with401)).toEqual([1]);
    const typed = searchReducer(login, { type: 'input', value: '401' });
    expect(nums(typed)).toEqual([1, 3]);
    const ranged = searchReducer(searchReducer(login, { type: 'toggleDateRange' }), { type: 'setDateRange', from: '2026-11-20T00:00', to: '2030-01-01T00:00' });
    expect(nums(ranged)).toEqual([1, 2, 3]);
  });

  it('follows the Aa toggle', () => {
    const state = run({ type: 'input', value: 'Login' });
    expect(nums(state)).toEqual([1, 2, 3, 4]);
    expect(nums(searchReducer(state, { type: 'toggleCaseSensitive' }))).toEqual([4]);
  });

  it('is empty (passes everything) for an empty bar and reads as a sentence', () => {
    const state = initialSearchState(NOW);
    expect(searchFilter(state)).toEqual({ type: 'all', filters: [] });
    expect(items.every((item) => matches(searchFilter(state), item))).toBe(true);
    expect(explain(listFilter('network', run({ type: 'pick', suggestion: fieldTag('url', 'https://api.example.com/login') }))))
      .toBe('Only network requests and URL contains "https://api.example.com/login"');
  });
});

describe('suggestions', () => {
  const index = new FieldValueIndex();
  index.addAll(generateItems(2000));

  it('offers the values seen in the data for each searchable field', () => {
    expect(index.valuesOf('type').sort()).toEqual(['event', 'firebaseAnalytics', 'log', 'network', 'screenshot']);
    expect(index.valuesOf('method').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    expect(index.valuesOf('method')[0]).toBe('GET');
    expect(index.valuesOf('createdAt')).toEqual(['2026-11-20']);
    expect(index.valuesOf('url')).toContain('https://api.example.com/v1/users');
    expect(index.valuesOf('url').every((u) => !u.includes('?'))).toBe(true);
  });

  it('ranks exact, then prefix, then contained values, grouped by field', () => {
    const s = index.suggest('er');
    expect(s.every((t) => !t.isFreeText)).toBe(true);
    expect(s.map((t) => t.display)).toContain('Level: error');
    expect(index.suggest('post').map((t) => t.display)).toEqual(['Method: POST']);
    expect(index.suggest('post', { caseSensitive: true })).toEqual([]);
    expect(index.suggest('40').map((t) => t.display)).toEqual(['Status Code: 400', 'Status Code: 401', 'Status Code: 404']);
    expect(index.suggest('', { limit: 4 })).toHaveLength(4);
    const fields = index.suggest('e', { perField: 1, limit: 100 }).map((t) => t.field);
    expect(fields).toEqual([...new Set(fields)]);
  });

  it('forgets values when their items go', () => {
    const own = new FieldValueIndex();
    const a = networkItem({ num: 1, method: 'OPTIONS' });
    own.add(a);
    own.add(a);
    own.remove(a);
    expect(own.valuesOf('method')).toEqual(['OPTIONS']);
    own.remove(a);
    expect(own.valuesOf('method')).toEqual([]);
    own.add(a);
    own.clear();
    expect(own.suggest('')).toEqual([]);
  });
});
