import { describe, expect, it } from 'vitest';
import { generateItems, logItem, networkItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { ListStore } from '../store/list-store';
import { ManualHost } from '../store/test-items';
import { barSuggestions } from './bar-suggestions';
import { StoreFieldValues } from './field-values';

const displays = (values: StoreFieldValues, input: string) => values.suggest(input).map((tag) => tag.display);

describe('field values of a store for the search suggestions', () => {
  it('follow the store as items arrive, change and go', () => {
    const store = new ListStore({ host: new ManualHost() });
    const values = new StoreFieldValues(store, new ManualHost());
    expect(values.suggest('')).toEqual([]);
    let told = 0;
    values.subscribe(() => told++);

    store.upsertMany([
      networkItem({ id: 'a', method: 'POST', url: 'https://api.example.com/login?x=1', status: 401 }),
      networkItem({ id: 'b', method: 'GET', url: 'https://api.example.com/posts', status: 200 }),
      logItem({ num: 1, level: 'error', message: 'Failed' }),
    ]);
    expect(displays(values, 'post')).toEqual(['URL: https://api.example.com/posts', 'Method: POST']);
    expect(displays(values, 'err')).toEqual(['Level: error']);
    expect(displays(values, '40')).toEqual(['Status Code: 401']);

    // Replaced: the old values go with the old item.
    store.upsertMany([networkItem({ id: 'a', method: 'PUT', url: 'https://api.example.com/login', status: 204 })]);
    expect(displays(values, 'post')).toEqual(['URL: https://api.example.com/posts']);
    expect(displays(values, '40')).toEqual([]);

    store.deleteIds(['log-1']);
    expect(displays(values, 'err')).toEqual([]);
    store.clear();
    expect(values.suggest('')).toEqual([]);
    // Added, replaced (added and removed), deleted, cleared.
    expect(told).toBe(5);
    expect(values.version).toBe(5);
  });

  it('rank exact, then prefix, then contained values, the most frequent first, and honour Aa', () => {
    const store = new ListStore({ host: new ManualHost() });
    const values = new StoreFieldValues(store, new ManualHost());
    store.upsertMany([
      ...['GET', 'GET', 'GET', 'POST', 'POST', 'GETX'].map((method, i) => networkItem({ id: `m${i}`, method, url: `https://h/${i}` })),
      networkItem({ id: 'z', method: 'FORGET', url: 'https://h/z' }),
    ]);
    expect(values.suggest('get', { perField: 5 }).filter((t) => t.field === 'method').map((t) => t.value)).toEqual(['GET', 'GETX', 'FORGET']);
    expect(values.suggest('get', { caseSensitive: true })).toEqual([]);
    expect(values.suggest('', { perField: 5 }).filter((t) => t.field === 'method').map((t) => t.value)).toEqual(['GET', 'POST', 'FORGET', 'GETX']);
  });

  it('index the items held before attaching in slices, without counting twice what changes meanwhile', () => {
    const store = new ListStore({ host: new ManualHost() });
    store.upsertMany([...generateItems(10_000), networkItem({ id: 'doomed', method: 'TRACE', url: 'https://doomed.example.com/' })]);
    const host = new ManualHost();
    const values = new StoreFieldValues(store, host, 0);
    expect(values.catchingUp).toBe(true);

    // While catching up: an old item deleted, a new one added.
    store.deleteIds(['doomed']);
    store.upsertMany([networkItem({ id: 'late', method: 'OPTIONS', url: 'https://late.example.com/x' })]);
    expect(host.runAll()).toBeGreaterThan(1);
    expect(values.catchingUp).toBe(false);

    const methods = values.suggest('', { perField: 50, limit: 1000 }).filter((t) => t.field === 'method').map((t) => t.value);
    expect(methods).toContain('OPTIONS');
    expect(methods).not.toContain('TRACE');
    // Counted as often as indexing the store as it is now would count them.
    const referenceHost = new ManualHost();
    const reference = new StoreFieldValues(store, referenceHost, 0);
    referenceHost.runAll();
    const options = { perField: 50, limit: 1000 };
    expect(values.suggest('', options)).toEqual(reference.suggest('', options));
  });
});

describe('the dropdown of the search bar', () => {
  it('offers power filter keys and the values seen for them before the field values', () => {
    const store = new ListStore({ host: new ManualHost() });
    const values = new StoreFieldValues(store, new ManualHost());
    store.upsertMany([
      networkItem({ id: 'a', method: 'POST', url: 'https://api.example.com/login', status: 404 }),
      networkItem({ id: 'b', method: 'GET', url: 'https://cdn.example.com/app.js', status: 200, responseHeaders: { 'Content-Type': 'text/javascript' } }),
    ]);
    const shown = (input: string) => barSuggestions(values, input, false).map((s) => (s.type === 'key' ? s.input : s.tag.display));
    expect(shown('me')).toEqual(['method:']);
    expect(shown('-method:')).toEqual(['-method:GET', '-method:POST']);
    expect(shown('status-code:404 domain:cdn')).toEqual(['domain:cdn.example.com']);
    expect(shown('mime-type:java')).toEqual(['mime-type:text/javascript']);
    expect(shown('login')).toEqual(['URL: https://api.example.com/login']);
  });
});
