import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  comparePrecedence, compileItemMocks, compileRoutes, explainRoute, interceptedItemId, mappedUrlFor, routeMatches,
  selectRoute, setMockLogger, type MatchableRoute,
} from './matching';
import { MockData, type MockDataInput } from './mocked-routes';
import { validateMockData } from './validate';

let n = 0;
function route(mockedUrl: string, overrides: Partial<MockDataInput> = {}, createdAt = `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`): MatchableRoute & { id: string } {
  n++;
  return { id: `r${n}`, createdAt, isEnabled: true, mockData: MockData.parse({ mockedUrl, statusCode: 200, ...overrides }) };
}

afterEach(() => setMockLogger((message) => console.warn(message)));

describe('routeMatches', () => {
  it('needs the same method and a matching URL', () => {
    const r = route('https://api.example.com/users/*', { method: 'POST' });
    expect(routeMatches(r, { method: 'POST', url: 'https://api.example.com/users/1' })).toBe(true);
    expect(routeMatches(r, { method: 'post', url: 'https://api.example.com/users/1' })).toBe(true);
    expect(routeMatches(r, { method: 'GET', url: 'https://api.example.com/users/1' })).toBe(false);
    expect(routeMatches({ ...r, isEnabled: false }, { method: 'POST', url: 'https://api.example.com/users/1' })).toBe(false);
    expect(routeMatches(r, { method: 'POST', url: '/users/1' })).toBe(false);
  });

  it('treats an invalid pattern as not matching and logs it once', () => {
    const logged: string[] = [];
    setMockLogger((message) => logged.push(message));
    const bad = route('https://api.example.com/a b');
    expect(routeMatches(bad, { method: 'GET', url: 'https://api.example.com/a%20b' })).toBe(false);
    expect(routeMatches(bad, { method: 'GET', url: 'https://api.example.com/a%20b' })).toBe(false);
    expect(logged).toEqual(['Invalid URL pattern "https://api.example.com/a b": it contains white space or control characters']);
    expect(compileRoutes([bad]).size).toBe(0);
  });
});

describe('precedence: most specific wins, ties by newest', () => {
  const request = { method: 'GET', url: 'https://api.example.com/users/42?tab=orders' };

  it('prefers the pattern with more literal characters', () => {
    const any = route('*');
    const prefix = route('https://api.example.com/*');
    const users = route('https://api.example.com/users/*');
    const exact = route('https://api.example.com/users/42');
    const withQuery = route('https://api.example.com/users/42?tab=orders');
    expect(selectRoute([any, prefix, users, exact, withQuery], request)?.id).toBe(withQuery.id);
    expect(selectRoute([any, prefix, users, exact], request)?.id).toBe(exact.id);
    expect(selectRoute([any, prefix, users], request)?.id).toBe(users.id);
    expect(selectRoute([prefix, any], request)?.id).toBe(prefix.id);
    expect(selectRoute([any], request)?.id).toBe(any.id);
  });

  it('between equally specific patterns, the newest wins', () => {
    const older = route('https://api.example.com/users/*', {}, '2026-01-01T00:00:00.000Z');
    const newer = route('https://api.example.com/users/*', {}, '2026-02-01T00:00:00.000Z');
    expect(selectRoute([older, newer], request)?.id).toBe(newer.id);
    expect(selectRoute([newer, older], request)?.id).toBe(newer.id);
  });

  it('does not depend on the order routes are given in (property)', () => {
    const pool = [
      route('*'), route('/users/*'), route('https://api.example.com/*'), route('https://api.example.com/users/*'),
      route('https://*.example.com/users/*'), route('https://api.example.com/users/42'), route('/users/42?tab=*'),
      route('https://api.example.com/users/*', {}, '2026-03-01T00:00:00.000Z'), route('https://api.example.com/teams/*'),
      route('https://api.example.com/users/*', { method: 'POST' }),
    ];
    fc.assert(fc.property(fc.shuffledSubarray(pool, { minLength: 1 }), (routes) => {
      const chosen = selectRoute(routes, request);
      const candidates = routes.filter((r) => routeMatches(r, request));
      if (!chosen) return candidates.length === 0;
      const rank = (r: MatchableRoute & { id: string }) => ({ specificity: compileRoutes([r]).find('GET', request.url)!.pattern.specificity, createdAt: r.createdAt, id: r.id });
      return candidates.every((c) => comparePrecedence(rank(chosen), rank(c)) <= 0);
    }));
  });

  it('finds item mocks by method and URL, the newest first', () => {
    const mock = (itemId: string, updatedAt: string) => ({ itemId, method: 'GET', url: 'https://api.example.com/users/42\\?tab=orders', statusCode: 418, headers: {}, body: '', delayMs: 0, updatedAt });
    const set = compileItemMocks([mock('a', '2026-01-01T00:00:00.000Z'), mock('b', '2026-01-02T00:00:00.000Z')]);
    expect(set.find('GET', request.url)?.rule.itemId).toBe('b');
    expect(set.find('POST', request.url)).toBeUndefined();
  });
});

describe('explainRoute', () => {
  it('says in words what a route does', () => {
    expect(explainRoute(route('https://api.example.com/todos/*', { statusCode: 201, body: '[]', headers: [{ key: 'Content-Type', value: 'application/json' }], delayMs: 300 })))
      .toBe("Answers GET requests to https://api.example.com/todos/* ('*' stands for any text) (host api.example.com, path /todos/…) with status 201, a body of 2 characters and 1 header after a delay of 300 ms.");
    expect(explainRoute(route('/orders?page=*', { method: 'POST', responseMode: 'dynamic', code: 'function handler() {}' })))
      .toBe("Answers POST requests to /orders?page=* ('*' stands for any text) (any host, path /orders with page=*) with the response its handler computes.");
    expect(explainRoute(route('https://api.example.com/v1/*', { mode: 'mapRemote', mapRemoteUrl: 'http://localhost:3000/v2' })))
      .toBe("Sends GET requests to https://api.example.com/v1/* ('*' stands for any text) (host api.example.com, path /v1/…) to http://localhost:3000/v2 instead, keeping the path and query as documented.");
    expect(explainRoute({ ...route('api.example.com'), isEnabled: false }))
      .toBe('Answers GET requests to api.example.com (host api.example.com, any path) with status 200, an empty body. It is disabled, so it does nothing now.');
    expect(explainRoute(route('https://*.example.com/v1/*')))
      .toBe("Answers GET requests to https://*.example.com/v1/* ('*' stands for any text) (host *.example.com, path /v1/…) with status 200, an empty body.");
    expect(explainRoute(route('ftp://x'))).toBe('Does nothing: Invalid URL pattern "ftp://x": scheme "ftp" is not http, https, ws, wss or *.');
  });
});

describe('mapRemote and validation', () => {
  it('maps a matching request to the target', () => {
    const r = route('https://api.example.com/v1/*', { mode: 'mapRemote', mapRemoteUrl: 'http://127.0.0.1:4000/v2' });
    expect(mappedUrlFor(r, { method: 'GET', url: 'https://api.example.com/v1/a/b?c=1' })).toBe('http://127.0.0.1:4000/v2/a/b?c=1');
    expect(mappedUrlFor(r, { method: 'GET', url: 'https://api.example.com/v2/a' })).toBeUndefined();
  });

  it('validates what the shape cannot', () => {
    const base = { mode: 'default' as const, responseMode: 'static' as const, code: '', mapRemoteUrl: '' };
    expect(validateMockData({ ...base, mockedUrl: '  ' })).toBe('Mocked URL is required');
    expect(validateMockData({ ...base, mockedUrl: 'https://x/a?=1' })).toMatch(/^Invalid URL pattern/);
    expect(validateMockData({ ...base, mockedUrl: '/a', responseMode: 'dynamic' })).toBe('Code is required');
    expect(validateMockData({ ...base, mockedUrl: '/a', mode: 'mapRemote', mapRemoteUrl: 'file:///etc' })).toBe('Map remote URL must be an absolute http or https URL');
    expect(validateMockData({ ...base, mockedUrl: '/a', mode: 'mapRemote', mapRemoteUrl: 'http://localhost:3000' })).toBeUndefined();
  });
});

describe('interceptedItemId', () => {
  it('reads the id from mockedBy or the Spyglass-Intercepted response header', () => {
    const network = (details: object) => ({ type: 'network' as const, details: { request: { method: 'GET', url: 'https://x/', headers: {} }, ...details } });
    expect(interceptedItemId(network({ mockedBy: { kind: 'item', id: 'i1' } }))).toBe('i1');
    expect(interceptedItemId(network({ response: { statusCode: 418, headers: { 'spyglass-intercepted': 'i2' } } }))).toBe('i2');
    expect(interceptedItemId(network({ response: { statusCode: 200, headers: {} } }))).toBeUndefined();
    expect(interceptedItemId({ type: 'log', details: { message: 'x' } })).toBeUndefined();
  });
});
