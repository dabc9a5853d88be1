import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileFilter, dateRangeFilter, defaultDateRangeInputs, explain, filterChunk, IncrementalFilter, ItemFilter, itemSearchText,
  matches, parseDateTimeLocal, SearchTextCache, SearchTextColumn, toDateTimeLocal, valueAtPath,
} from './filters';
import { analyticsItem, eventItem, generateItems, logItem, networkItem, screenshotItem } from './item-fixtures';
import type { CompactItem } from './items';

const net = networkItem({ num: 1, url: 'https://api.example.com/v1/Users?page=2', status: 404, method: 'POST' });
const log = logItem({ num: 2, message: 'Said "hello"\nthen C:\\path\\file — ünïcödé 👋', level: 'error' });
const event = eventItem({ num: 3, name: 'checkout_started', category: 'commerce' });
const shot = screenshotItem({ num: 4, name: 'Login Screen' });
const analytics = analyticsItem({ num: 5, name: 'screen_view' });
const mocked = networkItem({ num: 6, isMocked: true, url: 'https://cdn.example.net/img.png' });
const routedBase = networkItem({ num: 7, url: 'https://cdn.example.net/app.js' });
const routed = { ...routedBase, details: { ...routedBase.details, mockedBy: { kind: 'route' as const, id: 'r1' } } };
const all: CompactItem[] = [net, log, event, shot, analytics, mocked, routed];

const passing = (filter: ItemFilter) => all.filter(compileFilter(filter)).map((i) => i.num);

describe('category filters', () => {
  it('pick the filter bar type, all, mocks and analytics', () => {
    expect(passing({ type: 'category', category: 'all' })).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(passing({ type: 'category', category: 'network' })).toEqual([1, 6, 7]);
    expect(passing({ type: 'category', category: 'log' })).toEqual([2]);
    expect(passing({ type: 'category', category: 'event' })).toEqual([3]);
    expect(passing({ type: 'category', category: 'screenshot' })).toEqual([4]);
    expect(passing({ type: 'category', category: 'firebaseAnalytics' })).toEqual([5]);
    expect(passing({ type: 'category', category: 'mocks' })).toEqual([6, 7]);
  });
});

describe('free-text filter (spec 001 §5)', () => {
  const text = (value: string, caseSensitive = false): ItemFilter => ({ type: 'text', value, caseSensitive });

  it('searches the whole entry, case-insensitively unless Aa is on', () => {
    expect(passing(text('users?page'))).toEqual([1]);
    expect(passing(text('USERS'))).toEqual([1]);
    expect(passing(text('USERS', true))).toEqual([]);
    expect(passing(text('Users', true))).toEqual([1]);
  });

  it('finds quotes, backslashes, newlines and unicode as typed', () => {
    expect(passing(text('said "hello"'))).toEqual([2]);
    expect(passing(text('hello"\nthen'))).toEqual([2]);
    expect(passing(text('C:\\path\\file'))).toEqual([2]);
    expect(passing(text('ÜNÏCÖDÉ 👋'))).toEqual([2]);
    expect(passing(text('ünïcödé 👋', true))).toEqual([2]);
  });

  it('matches the type exactly', () => {
    expect(passing(text('network'))).toEqual([1, 6, 7]);
    expect(passing(text('Screenshot'))).toEqual([4]);
    expect(passing(text('firebaseanalytics'))).toEqual([5]);
    expect(passing(text('firebaseanalytics', true))).toEqual([]);
  });

  it('looks at the name of screenshots and at name and category of events', () => {
    expect(passing(text('login screen'))).toEqual([4]);
    expect(passing(text('image/png'))).toEqual([]);
    expect(passing(text('commerce'))).toEqual([3]);
    expect(passing(text('checkout_started'))).toEqual([3]);
  });

  it('lets everything through when empty', () => {
    expect(passing(text(''))).toHaveLength(all.length);
  });

  it('uses fresh text for a replaced item', () => {
    const cache = new SearchTextCache();
    const before = logItem({ num: 9, message: 'old words' });
    const after = { ...before, details: { ...before.details, message: 'new words' } };
    const predicate = compileFilter(text('new'), { texts: cache });
    expect(predicate(before, 0)).toBe(false);
    expect(predicate(after, 0)).toBe(true);
    expect(cache.text(after, true)).toBe(itemSearchText(after));
  });
});

describe('search texts by position', () => {
  it('finds what the per-item cache finds, and forgets an index when told', () => {
    const items = generateItems(3000);
    const column = new SearchTextColumn();
    for (const value of ['orders', 'WARNING', 'session=s5&', 'nothing-like-this']) {
      for (const caseSensitive of [false, true]) {
        const filter: ItemFilter = { type: 'text', value, caseSensitive };
        expect(items.filter(compileFilter(filter, { texts: column }))).toEqual(items.filter(compileFilter(filter, { texts: new SearchTextCache() })));
      }
    }
    const replaced = logItem({ num: 1, message: 'brand new words' });
    const predicate = compileFilter({ type: 'text', value: 'brand new', caseSensitive: false }, { texts: column });
    expect(predicate(replaced, 0)).toBe(false);
    column.invalidate(0);
    expect(predicate(replaced, 0)).toBe(true);
    column.clear();
    expect(column.text(items[5]!, false, 5)).toBe(itemSearchText(items[5]!).toLowerCase());
  });

  it('builds texts ahead of a search', () => {
    const items = generateItems(50);
    const column = new SearchTextColumn();
    column.warm(items, 10, 20);
    const changed = { ...items[15]!, details: { message: 'changed' } } as CompactItem;
    // Already built for index 15: the old text answers until invalidated.
    expect(column.text(changed, false, 15)).toBe(itemSearchText(items[15]!).toLowerCase());
  });

  it('builds the case-insensitive text when an item is written, the case-sensitive one when first searched', () => {
    const items = generateItems(20);
    const column = new SearchTextColumn();
    expect(column.text(items[3]!, true, 3)).toBe(itemSearchText(items[3]!));
    const replacement = logItem({ num: 4, message: 'Written Words' });
    column.written(3, replacement);
    // Built at once: the index answers with it whatever item is asked about.
    expect(column.text(items[0]!, false, 3)).toBe(itemSearchText(replacement).toLowerCase());
    // The replaced item's case-sensitive text is gone and built again from the new one.
    expect(column.text(replacement, true, 3)).toBe(itemSearchText(replacement));
    column.written(9, items[9]!);
    expect(column.text(items[0]!, false, 9)).toBe(itemSearchText(items[9]!).toLowerCase());
    expect(column.text(items[6]!, false, 6)).toBe(itemSearchText(items[6]!).toLowerCase());
    const filter = compileFilter({ type: 'text', value: 'written words', caseSensitive: false }, { texts: column });
    expect(filter(replacement, 3)).toBe(true);
    column.invalidate(3);
    expect(filter(items[3]!, 3)).toBe(false);
  });
});

describe('field filters (dotted path)', () => {
  const field = (path: string, value: string, caseSensitive = false): ItemFilter => ({ type: 'field', path, value, caseSensitive });

  it('compares the text at the path', () => {
    expect(passing(field('details.request.url', 'v1/users'))).toEqual([1]);
    expect(passing(field('details.request.url', 'v1/users', true))).toEqual([]);
    expect(passing(field('details.response.statusCode', '404'))).toEqual([1]);
    expect(passing(field('details.request.method', 'post'))).toEqual([1]);
    expect(passing(field('level', 'ERROR'))).toEqual([2]);
    expect(passing(field('details.request.headers.Accept', 'json'))).toEqual([1, 6, 7]);
  });

  it('never matches a missing path', () => {
    expect(passing(field('details.nothing.here', ''))).toEqual([]);
    expect(valueAtPath(net, 'details.request.method')).toBe('POST');
    expect(valueAtPath(net, 'details.request.method.length.x')).toBeUndefined();
  });
});

describe('date range', () => {
  const at = (iso: string, num: number) => logItem({ num, createdAt: iso });
  const items = [
    at('2026-11-20T09:59:59.999Z', 1),
    at('2026-11-20T10:00:00.000Z', 2),
    at('2026-11-21T12:00:00.000+02:00', 3),
    at('2026-11-22T10:00:00.000Z', 4),
    at('2026-11-22T10:00:00.001Z', 5),
  ];
  const nums = (from: number | null, to: number | null) => items.filter(compileFilter({ type: 'dateRange', from, to })).map((i) => i.num);

  it('includes both bounds, reads any ISO form and leaves open sides open', () => {
    const from = Date.UTC(2026, 10, 20, 10);
    const to = Date.UTC(2026, 10, 22, 10);
    expect(nums(from, to)).toEqual([2, 3, 4]);
    expect(nums(from, null)).toEqual([2, 3, 4, 5]);
    expect(nums(null, to)).toEqual([1, 2, 3, 4]);
    expect(nums(null, null)).toEqual([1, 2, 3, 4, 5]);
    expect(nums(to, from)).toEqual([]);
    expect(nums(Date.UTC(2026, 10, 21, 10), Date.UTC(2026, 10, 21, 10))).toEqual([3]);
  });

  it('defaults to the last 3 days through now, the end input covering its minute', () => {
    const now = new Date(2026, 10, 23, 14, 5, 30).getTime();
    const inputs = defaultDateRangeInputs(now);
    expect(inputs).toEqual({ from: '2026-11-20T14:05', to: '2026-11-23T14:05' });
    const filter = dateRangeFilter(inputs.from, inputs.to);
    expect(filter.from).toBe(new Date(2026, 10, 20, 14, 5).getTime());
    expect(filter.to).toBe(new Date(2026, 10, 23, 14, 5, 59, 999).getTime());
    expect(matches(filter, logItem({ createdAt: new Date(now).toISOString() }))).toBe(true);
  });

  it('reads datetime-local values and refuses invalid ones', () => {
    expect(parseDateTimeLocal('2026-02-03T04:05:06.7')).toBe(new Date(2026, 1, 3, 4, 5, 6, 700).getTime());
    expect(parseDateTimeLocal('2026-02-30T04:05')).toBeNull();
    expect(parseDateTimeLocal('')).toBeNull();
    expect(dateRangeFilter('', 'nonsense')).toEqual({ type: 'dateRange', from: null, to: null });
    expect(toDateTimeLocal(new Date(2026, 0, 2, 3, 4).getTime())).toBe('2026-01-02T03:04');
  });
});

const arbFilter: fc.Arbitrary<ItemFilter> = fc.oneof(
  fc.record({ type: fc.constant('category' as const), category: fc.constantFrom('all', 'network', 'log', 'event', 'screenshot', 'mocks', 'firebaseAnalytics') }),
  fc.record({ type: fc.constant('text' as const), value: fc.constantFrom('', 'users', 'HELLO', 'network', 'screen', '"', '\\', '👋', 'zzz'), caseSensitive: fc.boolean() }),
  fc.record({ type: fc.constant('field' as const), path: fc.constantFrom('details.request.url', 'level', 'type', 'details.response.statusCode'), value: fc.constantFrom('', '4', 'error', 'example', 'log'), caseSensitive: fc.boolean() }),
  fc.record({ type: fc.constant('dateRange' as const), from: fc.option(fc.integer({ min: Date.UTC(2026, 10, 19), max: Date.UTC(2026, 10, 24) })), to: fc.option(fc.integer({ min: Date.UTC(2026, 10, 19), max: Date.UTC(2026, 10, 24) })) }),
);

describe('every filter must match', () => {
  const sample = generateItems(200);

  it('passes an item through "all" exactly when each part passes it', () => {
    fc.assert(fc.property(fc.array(arbFilter, { maxLength: 5 }), fc.constantFrom(...sample, ...all), (filters, item) => {
      expect(matches({ type: 'all', filters }, item)).toBe(filters.every((f) => matches(f, item)));
    }), { numRuns: 500 });
  });

  it('keeps filters plain data that survive JSON and the schema', () => {
    fc.assert(fc.property(fc.array(arbFilter, { maxLength: 5 }), (filters) => {
      const filter: ItemFilter = { type: 'all', filters: [...filters, { type: 'all', filters: [] }] };
      expect(ItemFilter.parse(JSON.parse(JSON.stringify(filter)))).toEqual(filter);
    }));
    expect(ItemFilter.safeParse({ type: 'category', category: 'videos' }).success).toBe(false);
  });
});

describe('explain', () => {
  it('says in words what passes', () => {
    expect(explain({ type: 'all', filters: [] })).toBe('Every item');
    expect(explain({ type: 'category', category: 'all' })).toBe('Any type');
    expect(explain({
      type: 'all',
      filters: [
        { type: 'category', category: 'log' },
        { type: 'text', value: 'timeout', caseSensitive: true },
        { type: 'field', path: 'details.request.url', value: '/v1', caseSensitive: false, label: 'URL' },
      ],
    })).toBe('Only logs and the entry contains "timeout" (case-sensitive) and URL contains "/v1"');
    const from = new Date(2026, 10, 20, 14, 5).getTime();
    expect(explain({ type: 'dateRange', from, to: null })).toBe('Created from 2026-11-20 14:05:00.000');
    expect(explain({ type: 'field', path: 'level', value: 'x', caseSensitive: false })).toBe('Level contains "x"');
  });
});

describe('chunked filtering', () => {
  const items = generateItems(20_000);
  const predicate = compileFilter({ type: 'all', filters: [{ type: 'category', category: 'network' }, { type: 'text', value: 'orders', caseSensitive: false }] });
  const expected = items.flatMap((item, i) => (predicate(item, i) ? [i] : []));

  it('filterChunk appends the indexes of a slice', () => {
    const out: number[] = [];
    let found = 0;
    for (let from = 0; from < items.length; from += 3000) found += filterChunk(items, from, from + 3000, predicate, out);
    expect(out).toEqual(expected);
    expect(found).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('IncrementalFilter resumes after every yield and ends with the same result', () => {
    const filter = new IncrementalFilter(items, predicate);
    let steps = 0;
    while (!filter.step(() => true)) {
      steps++;
      expect(filter.progress).toBeLessThan(1);
    }
    expect(steps).toBeGreaterThan(2);
    expect(filter.done).toBe(true);
    expect(filter.indexes).toEqual(expected);
    expect(new IncrementalFilter([], predicate).step()).toBe(true);
  });
});
