import { MockData, type MockedRoute } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTE_SORT, filterRoutes, sortRoutes, type ListedRoute } from './route-list-order';

const route = (id: string, createdAt: string, over: Partial<MockedRoute> = {}, data: Partial<MockData> = {}): ListedRoute => ({
  id, deviceId: 'd', isEnabled: false, tags: [], description: '', areLiveUpdatesEnabled: false, createdAt, updatedAt: createdAt,
  mockData: MockData.parse({ mockedUrl: `https://api.example.com/${id}`, statusCode: 200, ...data }),
  ...over,
});

const todos = route('todos', '2026-01-01T10:00:00.000Z', { isEnabled: true, tags: ['Checkout'], description: 'Empty cart' }, {
  method: 'POST', statusCode: 418, headers: [{ key: 'X-Flavour', value: 'Vanilla' }], body: '{"items":[]}',
});
const users = route('users', '2026-01-03T10:00:00.000Z', {}, { responseMode: 'dynamic', code: 'function handler() { return { status: 204 } }' });
const orders = route('orders', '2026-01-02T10:00:00.000Z', { isEnabled: true }, { mode: 'mapRemote', mapRemoteUrl: 'http://localhost:3000', method: 'DELETE' });
const all = [todos, users, orders];
const ids = (routes: ListedRoute[]) => routes.map((r) => r.id);

describe('mocked route list order (spec 002 §2, §9)', () => {
  it('is createdAt descending by default', () => {
    expect(ids(sortRoutes(all, DEFAULT_ROUTE_SORT))).toEqual(['users', 'orders', 'todos']);
  });

  it('sorts by enabled, method and URL, newest first among equals', () => {
    expect(ids(sortRoutes(all, { by: 'isEnabled', descending: true }))).toEqual(['orders', 'todos', 'users']);
    expect(ids(sortRoutes(all, { by: 'method', descending: false }))).toEqual(['orders', 'users', 'todos']);
    expect(ids(sortRoutes(all, { by: 'mockedUrl', descending: false }))).toEqual(['orders', 'todos', 'users']);
    expect(ids(sortRoutes(all, { by: 'mockedUrl', descending: true }))).toEqual(['users', 'todos', 'orders']);
  });

  it('keeps a route not saved yet at the top', () => {
    const fresh = { ...route('new', '2025-01-01T00:00:00.000Z'), isUnsaved: true };
    expect(ids(sortRoutes([...all, fresh], { by: 'mockedUrl', descending: false }))[0]).toBe('new');
  });
});

describe('mocked route search (spec 002 §5)', () => {
  const search = (query: string) => ids(filterRoutes(all, query));

  it('matches the free text in every listed field, case-insensitively', () => {
    expect(search('API.EXAMPLE.COM/TODOS')).toEqual(['todos']);
    expect(search('post')).toEqual(['todos']);
    expect(search('checkout')).toEqual(['todos']);
    expect(search('empty cart')).toEqual(['todos']);
    expect(search('x-flavour')).toEqual(['todos']);
    expect(search('vanilla')).toEqual(['todos']);
    expect(search('"items"')).toEqual(['todos']);
    expect(search('418')).toEqual(['todos']);
    expect(search('handler')).toEqual(['users']);
    expect(search('mapremote')).toEqual(['orders']);
    expect(search('disabled')).toEqual(['users']);
    expect(search('2026-01-02')).toEqual(['orders']);
    expect(search('')).toEqual(['todos', 'users', 'orders']);
  });

  it('takes method (exact), url and tag filters', () => {
    expect(search('method:delete')).toEqual(['orders']);
    expect(search('method:DEL')).toEqual([]);
    expect(search('url:/users')).toEqual(['users']);
    expect(search('tag:check')).toEqual(['todos']);
    expect(search('enabled url:orders')).toEqual(['orders']);
  });
});
