import { describe, expect, it } from 'vitest';
import { compileFilter, explain, ItemFilter, matches, urlHost } from './filters';
import { eventItem, logItem, networkItem } from './item-fixtures';
import type { CompactItem } from './items';
import { parseQuery, parseToken, POWER_FILTER_KEYS, readDuration, readSize, suggestPowerFilters, unknownFilterKeys, type PowerSuggestion } from './power-filters';
import { activeTags, FieldValueIndex, initialSearchState, searchFilter, searchReducer, typedTags, type SearchState } from './search';

const items: CompactItem[] = [
  { ...networkItem({ num: 1, method: 'GET', url: 'https://api.example.com/v1/users', status: 200, duration: 80 }), size: 2_000 },
  { ...networkItem({ num: 2, method: 'POST', url: 'https://api.example.com/v1/orders', status: 404, duration: 650 }), size: 150_000 },
  { ...networkItem({ num: 3, method: 'GET', url: 'http://user:pw@CDN.Example.com:8443/img.png', status: 404, duration: 30, responseHeaders: { 'content-type': 'image/png' } }), size: 3 * 1024 * 1024 },
  { ...networkItem({ num: 4, method: 'DELETE', url: 'https://example.com/v2/session', status: 500, duration: 1_500, isMocked: true }), size: 500 },
  networkItem({ num: 5, method: 'PUT', url: 'https://other.org/upload', status: null, duration: null }),
  networkItem({ num: 6, method: 'GET', url: 'https://other.org/fail', status: null, duration: null, error: 'ECONNREFUSED' }),
  { ...networkItem({ num: 7, method: 'GET', url: 'https://api.example.com/v1/page', status: 302, duration: 500, responseHeaders: { 'Content-Type': 'text/html; charset=utf-8' } }), size: 100 * 1024 },
  logItem({ num: 8, message: 'Upload finished', level: 'info' }),
  eventItem({ num: 9, name: 'checkout_started' }),
];

/** The numbers of the items that the typed query lets through. */
function passing(query: string, caseSensitive = false): number[] {
  const state: SearchState = { ...initialSearchState(0), input: query, caseSensitive };
  const predicate = compileFilter(searchFilter(state));
  return items.filter((item, i) => predicate(item, i)).map((i) => i.num);
}

function tokenError(raw: string): string | null {
  const token = parseToken(raw);
  if (token.kind !== 'filter') throw new Error(`${raw} is not a filter`);
  return token.error;
}

describe('power filter keys', () => {
  it('status-code: and its alias status: take a code, a comparison, a class or a range', () => {
    expect(passing('status-code:404')).toEqual([2, 3]);
    expect(passing('status:404')).toEqual([2, 3]);
    expect(passing('STATUS-CODE:=500')).toEqual([4]);
    expect(passing('status:>=400')).toEqual([2, 3, 4]);
    expect(passing('status:>404')).toEqual([4]);
    expect(passing('status:<300')).toEqual([1]);
    expect(passing('status:<=302')).toEqual([1, 7]);
    expect(passing('status-code:4xx')).toEqual([2, 3]);
    expect(passing('status-code:3XX')).toEqual([7]);
    expect(passing('status-code:300-499')).toEqual([2, 3, 7]);
  });

  it('method: is the whole method, any case, with * as a wildcard', () => {
    expect(passing('method:POST')).toEqual([2]);
    expect(passing('method:get')).toEqual([1, 3, 6, 7]);
    expect(passing('method:P*')).toEqual([2, 5]);
    expect(passing('method:GE')).toEqual([]);
  });

  it('domain: is the URL host without user info or port; *.example.com takes its subdomains', () => {
    expect(passing('domain:*.example.com')).toEqual([1, 2, 3, 7]);
    expect(passing('domain:example.com')).toEqual([4]);
    expect(passing('domain:cdn.example.com')).toEqual([3]);
    expect(passing('domain:*example.com')).toEqual([1, 2, 3, 4, 7]);
    expect(passing('domain:other.*')).toEqual([5, 6]);
    expect(urlHost('https://[::1]:8080/x')).toBe('[::1]');
    expect(urlHost('example.com/path')).toBe('example.com');
    expect(urlHost('https://a.b?q=1')).toBe('a.b');
  });

  it('url: is a part of the URL, any case, with * as a wildcard; other items never match', () => {
    expect(passing('url:/v1/')).toEqual([1, 2, 7]);
    expect(passing('url:/V1/USERS')).toEqual([1]);
    expect(passing('url:cdn.example.com:8443/')).toEqual([3]);
    expect(passing('url:https://api.example.com/v1/page')).toEqual([7]);
    expect(passing('url:/v*/*s')).toEqual([1, 2, 4]);
    // The log 'Upload finished' has no URL.
    expect(passing('url:upload')).toEqual([5]);
    expect(passing('-url:example')).toEqual([5, 6, 8, 9]);
    expect(passing('URL:/fail')).toEqual([6]);
    // Only * is special: dots, parentheses and question marks are themselves.
    expect(passing('url:v1.users')).toEqual([]);
    expect(passing('url:(')).toEqual([]);
    expect(passing('url:users?')).toEqual([]);
    expect(tokenError('url:')).toBe('url: needs a value');
    expect(POWER_FILTER_KEYS.find((k) => k.key === 'url')).toMatchObject({ example: 'url:/api/health' });
  });

  it('larger-than: reads bytes, k, m and g (1024-based like the Size column), strictly above', () => {
    expect(passing('larger-than:100k')).toEqual([2, 3]);
    expect(passing('larger-than:102399')).toEqual([2, 3, 7]);
    expect(passing('larger-than:1.5m')).toEqual([3]);
    expect(passing('larger-than:2KB')).toEqual([2, 3, 7]);
    expect(readSize('100k')).toBe(102_400);
    expect(readSize('2 MB')).toBe(2 * 1024 * 1024);
    expect(readSize('1g')).toBe(1024 ** 3);
    expect(readSize('12q')).toBeNull();
  });

  it('duration: compares milliseconds (or s, min); a bare number means at least', () => {
    expect(passing('duration:>500')).toEqual([2, 4]);
    expect(passing('duration:500')).toEqual([2, 4, 7]);
    expect(passing('duration:<100')).toEqual([1, 3]);
    expect(passing('duration:>1s')).toEqual([4]);
    expect(passing('duration:100ms-1s')).toEqual([2, 7]);
    expect(readDuration('1.5s')).toBe(1500);
    expect(readDuration('2min')).toBe(120_000);
    expect(readDuration('2m')).toBe(120_000);
  });

  it('mime-type: is the response content type without parameters, with * as a wildcard', () => {
    expect(passing('mime-type:image/png')).toEqual([3]);
    expect(passing('mime-type:image/*')).toEqual([3]);
    expect(passing('mime-type:text/html')).toEqual([7]);
    expect(passing('mime-type:application/json')).toEqual([1, 2, 4]);
  });

  it('is:mocked and is:pending', () => {
    expect(passing('is:mocked')).toEqual([4]);
    // Number 6 failed without an answer: not pending.
    expect(passing('is:pending')).toEqual([5]);
    expect(passing('is:PENDING')).toEqual([5]);
  });
});

describe('negation, regular expressions and combining', () => {
  it('a leading - excludes what the filter matches, items without the value included', () => {
    expect(passing('-method:GET')).toEqual([2, 4, 5, 8, 9]);
    expect(passing('-status-code:4xx')).toEqual([1, 4, 5, 6, 7, 8, 9]);
    expect(passing('-is:mocked')).toEqual([1, 2, 3, 5, 6, 7, 8, 9]);
  });

  it('filters combine with AND, with each other, free text and the committed tags', () => {
    expect(passing('status-code:404 -method:GET')).toEqual([2]);
    expect(passing('status:>=400 orders')).toEqual([2]);
    expect(passing('domain:*.example.com larger-than:10k duration:>100')).toEqual([2, 7]);
    let state = searchReducer(initialSearchState(0), { type: 'input', value: 'status-code:404' });
    state = searchReducer(state, { type: 'commit' });
    state = searchReducer(state, { type: 'input', value: '-method:GET' });
    const predicate = compileFilter(searchFilter(state));
    expect(items.filter((item) => predicate(item, -1)).map((i) => i.num)).toEqual([2]);
  });

  it('/regex/ tests the URL of requests and the summary of other items, Aa making it case-sensitive', () => {
    expect(passing('/v[12]\\/(users|session)$/')).toEqual([1, 4]);
    expect(passing('/^upload/')).toEqual([8]);
    expect(passing('/CDN/')).toEqual([3]);
    expect(passing('/CDN/', true)).toEqual([3]);
    expect(passing('/cdn/', true)).toEqual([]);
    // An explicit i flag wins over Aa.
    expect(passing('/cdn/i', true)).toEqual([3]);
    expect(passing('/EXAMPLE/', true)).toEqual([]);
    expect(passing('-/example\\.com/')).toEqual([5, 6, 8, 9]);
  });

  it('explains what the power filters let through', () => {
    const state: SearchState = { ...initialSearchState(0), input: 'status:>=400 -method:GET is:mocked /a+/' };
    expect(explain(searchFilter(state))).toBe(
      'Status code >= 400 and not (method is "get") and mocked and the URL matches /a+/i',
    );
    expect(explain(searchFilter({ ...initialSearchState(0), input: '-url:/V1/*' }))).toBe('Not (the URL contains "/v1/*")');
  });
});

describe('bad input', () => {
  it('becomes an invalid tag with a reason instead of throwing, and filters nothing', () => {
    const bad = ['status-code:abc', 'status:>=', 'status:600-500', 'status:1000', 'method:P0ST', 'larger-than:12q', 'duration:>fast', 'is:broken', 'domain:', '/(unclosed/', '/a/gy'];
    for (const raw of bad) {
      expect(tokenError(raw), raw).toEqual(expect.any(String));
      expect(passing(raw), raw).toEqual(items.map((i) => i.num));
    }
    expect(tokenError('status:600-500')).toBe('The range 600-500 is empty');
    expect(tokenError('is:broken')).toBe('is: takes mocked or pending');
    expect(tokenError('/(unclosed/')).toMatch(/^Invalid regular expression/);
    const tags = activeTags({ tags: [], input: 'is:broken method:POST' });
    expect(tags.map((t) => [t.display, t.error ?? null])).toEqual([['is:broken', 'is: takes mocked or pending'], ['method:POST', null]]);
    expect(passing('is:broken method:POST')).toEqual([2]);
  });

  it('words naming no filter stay free text, as typed when no filter is among them', () => {
    expect(parseToken('https://example.com')).toEqual({ kind: 'text', text: 'https://example.com' });
    expect(parseToken('foo:bar')).toEqual({ kind: 'text', text: 'foo:bar' });
    expect(parseToken('-word')).toEqual({ kind: 'text', text: '-word' });
    // A URL path is no regular expression with flags 'cart'.
    expect(parseToken('/api/cart')).toEqual({ kind: 'text', text: '/api/cart' });
    expect(parseToken('/api/recommendations')).toEqual({ kind: 'text', text: '/api/recommendations' });
    expect(parseToken('/a/g')).toMatchObject({ kind: 'filter', key: 'regex', filter: null, error: "Unknown regular expression flags 'g'" });
    expect(parseQuery('  a  b ')).toEqual({ filters: [], text: 'a  b' });
    expect(parseQuery('a method:GET  b').text).toBe('a b');
    expect(passing('users')).toEqual([1]);
  });

  it('a word:value whose word names no filter is searched as text, and named as such', () => {
    expect(parseToken('host:example.com')).toEqual({ kind: 'text', text: 'host:example.com' });
    expect(typedTags('host:example.com method:GET')).toMatchObject([
      { fieldLabel: 'method', value: 'GET', isFreeText: false },
      { value: 'host:example.com', isFreeText: true },
    ]);
    // Text, not a filter that lets nothing through: found where it is written.
    const log = logItem({ num: 10, message: 'Retry for userId:42 on localhost:8080' });
    const text = (query: string) => matches(searchFilter({ ...initialSearchState(0), input: query }), log);
    expect(text('userId:42')).toBe(true);
    expect(text('ON LOCALHOST:8080')).toBe(true);
    expect(text('userId:43')).toBe(false);
    expect(passing('host:example.com')).toEqual([]);
    // The words the bar names in the tag's title: not URLs, not a word ending in a colon.
    expect(unknownFilterKeys('host:example.com https://a.b/c TypeError: Host:x localhost:8080 url:/a status:500 plain')).toEqual(['host', 'localhost']);
    expect(unknownFilterKeys('timeout')).toEqual([]);
  });

  it('a filter object with a regular expression that does not compile matches nothing', () => {
    const filter = ItemFilter.parse({ type: 'regex', source: '(', flags: '' });
    expect(items.filter((item) => compileFilter(filter)(item, -1))).toEqual([]);
    expect(() => ItemFilter.parse({ type: 'regex', source: 'a', flags: 'g' })).toThrow();
  });
});

describe('tags and suggestions', () => {
  it('Enter turns each filter into a tag and the rest into one free-text tag; field tags keep working', () => {
    let state = searchReducer(initialSearchState(0), { type: 'input', value: 'orders status-code:404 -method:GET' });
    state = searchReducer(state, { type: 'commit' });
    expect(state.tags.map((t) => [t.fieldLabel, t.value, t.negated ?? false, t.isFreeText])).toEqual([
      ['status-code', '404', false, false],
      ['method', 'GET', true, false],
      ['Text', 'orders', false, true],
    ]);
    state = searchReducer(state, { type: 'clear' });
    state = searchReducer(state, { type: 'pick', suggestion: { field: 'method', fieldLabel: 'Method', path: 'details.request.method', value: 'PO', display: 'Method: PO', isFreeText: false } });
    const predicate = compileFilter(searchFilter(state));
    expect(items.filter((item) => predicate(item, -1)).map((i) => i.num)).toEqual([2]);
  });

  const index = new FieldValueIndex();
  index.addAll(items);
  const shown = (s: PowerSuggestion) => (s.type === 'key' ? s.input : s.tag.display);

  it('suggests the keys a word starts, alias included', () => {
    expect(suggestPowerFilters('st', index).map(shown)).toEqual(['status-code:']);
    expect(suggestPowerFilters('orders -me', index).map(shown)).toEqual(['orders -method:']);
    expect(suggestPowerFilters('d', index).map(shown)).toEqual(['domain:', 'duration:']);
    expect(suggestPowerFilters('orders ', index)).toEqual([]);
    expect(suggestPowerFilters('u', index).map(shown)).toEqual(['url:']);
  });

  it('suggests the values seen in the data for a key, filtered by what follows the colon', () => {
    expect(suggestPowerFilters('status-code:4', index).map(shown)).toEqual(['status-code:>=400', 'status-code:404']);
    expect(suggestPowerFilters('method:', index).map(shown)).toEqual(['method:GET', 'method:DELETE', 'method:POST', 'method:PUT']);
    expect(suggestPowerFilters('-domain:exa', index).map(shown)).toEqual(['-domain:api.example.com', '-domain:cdn.example.com', '-domain:example.com']);
    expect(suggestPowerFilters('mime-type:', index).map(shown)).toEqual(['mime-type:application/json', 'mime-type:image/png', 'mime-type:text/html']);
    expect(suggestPowerFilters('is:', index).map(shown)).toEqual(['is:mocked', 'is:pending']);
    // url: offers the paths seen, without scheme and host.
    expect(suggestPowerFilters('url:v1', index).map(shown)).toEqual(['url:/v1/orders', 'url:/v1/page', 'url:/v1/users']);
    expect(suggestPowerFilters('-url:', index).map(shown)).toContain('-url:/img.png');
  });

  it('picking a value commits the words before it and the filter, and a key completes the input', () => {
    let state = searchReducer(initialSearchState(0), { type: 'input', value: 'orders method:P' });
    const [post] = suggestPowerFilters(state.input, index);
    expect(post!.type).toBe('value');
    state = searchReducer(state, { type: 'pick', suggestion: (post as Extract<PowerSuggestion, { type: 'value' }>).tag });
    expect(state.input).toBe('');
    expect(state.tags.map((t) => t.display)).toEqual(['orders', 'method:POST']);
    state = searchReducer(state, { type: 'complete', value: 'status-code:' });
    expect(state).toMatchObject({ input: 'status-code:', suggestionsOpen: true });
  });
});
