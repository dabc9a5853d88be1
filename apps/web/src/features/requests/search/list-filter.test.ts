import { describe, expect, it } from 'vitest';
import { fieldTag, initialSearchState, itemSearchText, searchReducer, toDateTimeLocal, type SearchAction, type SearchState } from '@spyglass/protocol';
import { eventItem, logItem, networkItem, screenshotItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { ListStore } from '../store/list-store';
import { ManualHost } from '../store/test-items';
import { ListFilterBinding, passesEverything } from './list-filter';
import { searchTextsOf } from './search-texts';

const NOW = Date.UTC(2026, 10, 23, 12);
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

function setUp() {
  const host = new ManualHost();
  const store = new ListStore({ host, sliceMs: 0, chunk: 2 });
  store.upsertMany([
    networkItem({ id: 'login', num: 1, createdAt: at(50), method: 'POST', url: 'https://api.example.com/Login', status: 401 }),
    networkItem({ id: 'users', num: 2, createdAt: at(40), method: 'GET', url: 'https://api.example.com/users', status: 200 }),
    logItem({ num: 3, createdAt: at(30), message: 'Login failed: wrong password', level: 'error' }),
    eventItem({ num: 4, createdAt: at(5 * 24 * 60), name: 'checkout_started' }),
    screenshotItem({ num: 5, createdAt: at(10), name: 'Login screen' }),
  ]);
  const binding = new ListFilterBinding(store);
  const shown = () => [...store.rows()].map((item) => item.id);
  return { host, store, binding, shown };
}

const play = (...actions: SearchAction[]): SearchState => actions.reduce(searchReducer, initialSearchState(NOW));

describe('the list filter of the filter bar and the search bar, on a real list store', () => {
  it('filters by category and by the text being typed, case-insensitive unless Aa is on', () => {
    const { host, store, binding, shown } = setUp();
    binding.apply('network', play());
    host.runAll();
    expect(shown()).toEqual(['users', 'login']);

    binding.apply('all', play({ type: 'input', value: 'login' }));
    expect(store.isRecomputing).toBe(true);
    host.runAll();
    // The screenshot matches by its name, the log by its message, the request by its URL.
    expect(shown()).toEqual(['shot-5', 'log-3', 'login']);

    binding.apply('all', play({ type: 'input', value: 'login' }, { type: 'toggleCaseSensitive' }));
    host.runAll();
    expect(shown()).toEqual([]);
    binding.apply('all', play({ type: 'input', value: 'Login' }, { type: 'toggleCaseSensitive' }));
    host.runAll();
    expect(shown()).toEqual(['shot-5', 'log-3', 'login']);
  });

  it('needs every tag to match, a field tag at its path, free text equal to a type matching that type', () => {
    const { host, binding, shown } = setUp();
    binding.apply('all', play({ type: 'input', value: 'log' }));
    host.runAll();
    expect(shown()).toEqual(['shot-5', 'log-3', 'login']);
    binding.apply('all', play({ type: 'input', value: 'log' }, { type: 'commit' }, { type: 'pick', suggestion: fieldTag('method', 'POST') }));
    host.runAll();
    expect(shown()).toEqual(['login']);
    binding.apply('all', play({ type: 'pick', suggestion: fieldTag('statusCode', '200') }));
    host.runAll();
    expect(shown()).toEqual(['users']);
  });

  it('applies the date range only while it is shown, the last 3 days by default', () => {
    const { host, binding, shown } = setUp();
    binding.apply('all', play({ type: 'toggleDateRange' }));
    host.runAll();
    expect(shown()).toEqual(['shot-5', 'log-3', 'users', 'login']);
    binding.apply('all', play({ type: 'toggleDateRange' }, { type: 'setDateRange', from: toDateTimeLocal(NOW - 45 * 60_000) }, { type: 'setDateRange', to: toDateTimeLocal(NOW - 20 * 60_000) }));
    host.runAll();
    expect(shown()).toEqual(['log-3', 'users']);
    binding.apply('all', play());
    host.runAll();
    expect(shown()).toHaveLength(5);
  });

  it('asks the store again only when the filter changed, and for no filter at all when nothing is searched', () => {
    const { host, store, binding } = setUp();
    const typing = play({ type: 'input', value: 'users' });
    binding.apply('all', typing);
    host.runAll();
    binding.apply('all', searchReducer(typing, { type: 'escape' }));
    binding.apply('all', searchReducer(typing, { type: 'input', value: 'users ' }));
    expect(store.isRecomputing).toBe(false);
    binding.apply('all', play());
    host.runAll();
    expect(store.count).toBe(5);
    binding.apply('all', play({ type: 'input', value: '   ' }));
    expect(store.isRecomputing).toBe(false);
    expect(passesEverything({ type: 'all', filters: [{ type: 'category', category: 'all' }, { type: 'dateRange', from: null, to: null }] })).toBe(true);
    expect(passesEverything({ type: 'field', path: 'level', value: '', caseSensitive: false })).toBe(false);
  });

  it('filters items arriving later and items replaced with new text, reusing the search texts of the store', () => {
    const { host, store, binding, shown } = setUp();
    binding.apply('all', play({ type: 'input', value: 'timeout' }));
    host.runAll();
    expect(shown()).toEqual([]);
    store.upsertMany([logItem({ num: 6, createdAt: at(1), message: 'Request timeout after 30 s' })]);
    expect(shown()).toEqual(['log-6']);
    store.upsertMany([logItem({ num: 3, createdAt: at(30), message: 'Socket TIMEOUT' })]);
    expect(shown()).toEqual(['log-6', 'log-3']);
    store.upsertMany([logItem({ num: 6, createdAt: at(1), message: 'Request done' })]);
    expect(shown()).toEqual(['log-3']);
    // Markup and quotes are searched as the text they are.
    store.upsertMany([logItem({ num: 7, createdAt: at(0), message: '<img src=x onerror="alert(1)">' })]);
    binding.apply('all', play({ type: 'input', value: 'onerror="alert' }));
    host.runAll();
    expect(shown()).toEqual(['log-7']);
  });

  it('has the store build the search texts as items arrive, before any search', () => {
    const host = new ManualHost();
    const store = new ListStore({ host });
    new ListFilterBinding(store);
    const items = [logItem({ num: 1, message: 'Cart Emptied' }), screenshotItem({ num: 2, name: 'Home' })];
    store.upsertMany(items);
    const texts = searchTextsOf(store);
    // Read back with an unrelated item: the text at the slot was built when the item was written.
    expect(texts.text(items[1]!, false, 0)).toBe(itemSearchText(items[0]!).toLowerCase());
    expect(texts.text(items[0]!, false, 1)).toBe(itemSearchText(items[1]!).toLowerCase());
  });
});
