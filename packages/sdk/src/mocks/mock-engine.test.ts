import { describe, expect, it } from 'vitest';
import { MockData, type ConsoleEntry, type DeviceMocks, type MockDataInput } from '@spyglass/protocol';
import { MockEngine } from './mock-engine';

const routeOf = (id: string, data: Partial<MockDataInput>, createdAt = '2026-01-01T00:00:00.000Z') =>
  ({ id, createdAt, mockData: MockData.parse({ mockedUrl: '*', statusCode: 200, ...data }) });

function engine() {
  const logs: Array<[string, ConsoleEntry[]]> = [];
  const errors: Array<[string, string]> = [];
  const mocks = new MockEngine({ onHandlerLog: (id, entries) => logs.push([id, entries]), onHandlerError: (id, error) => errors.push([id, error]) }, () => import('@spyglass/protocol/sandbox'));
  return { mocks, logs, errors };
}

const request = (url: string, method = 'GET') => ({ method, url, headers: {}, body: null });

describe('MockEngine', () => {
  it('answers item mocks before routes, and routes by precedence', async () => {
    const { mocks } = engine();
    const set: DeviceMocks = {
      revision: 1,
      routes: [
        routeOf('any', { mockedUrl: 'https://api.example.com/*', statusCode: 201, body: 'any' }),
        routeOf('users', { mockedUrl: 'https://api.example.com/users/*', statusCode: 202, body: 'users', headers: [{ key: 'X-A', value: '1' }], delayMs: 5 }),
      ],
      itemMocks: [{ itemId: 'item-1', method: 'GET', url: 'https://api.example.com/users/1\\?full=1', statusCode: 418, headers: { 'X-Teapot': 'yes' }, body: '{}', delayMs: 0, updatedAt: '2026-01-01T00:00:00.000Z' }],
    };
    expect(mocks.apply(set)).toEqual({ routes: 2, itemMocks: 1 });
    expect(await mocks.decide(request('https://api.example.com/users/1?full=1'))).toEqual({
      kind: 'respond', status: 418, body: '{}', delayMs: 0, headers: { 'X-Teapot': 'yes', 'Spyglass-Intercepted': 'item-1' }, mockedBy: { kind: 'item', id: 'item-1' },
    });
    expect(await mocks.decide(request('https://api.example.com/users/2'))).toMatchObject({ status: 202, body: 'users', delayMs: 5, headers: { 'X-A': '1', 'Spyglass-Intercepted': 'users' }, mockedBy: { kind: 'route', id: 'users' } });
    expect(await mocks.decide(request('https://api.example.com/teams'))).toMatchObject({ status: 201, mockedBy: { id: 'any' } });
    expect(await mocks.decide(request('https://other.example.com/users/2'))).toBeUndefined();
    expect(await mocks.decide(request('https://api.example.com/users/2', 'POST'))).toBeUndefined();
  });

  it('keeps the newest revision, and a reset clears everything', async () => {
    const { mocks } = engine();
    mocks.apply({ revision: 10, routes: [routeOf('a', {})], itemMocks: [] });
    expect(mocks.apply({ revision: 5, routes: [], itemMocks: [] })).toEqual({ routes: 1, itemMocks: 0 });
    mocks.reset();
    expect(mocks.isEmpty).toBe(true);
    expect(mocks.apply({ revision: 1, routes: [routeOf('b', {})], itemMocks: [] })).toEqual({ routes: 1, itemMocks: 0 });
    expect(() => mocks.apply({ routes: [] })).toThrow();
  });

  it('forwards mapRemote requests to the target', async () => {
    const { mocks } = engine();
    mocks.apply({ revision: 1, routes: [routeOf('map', { mode: 'mapRemote', mockedUrl: 'https://api.example.com/v1/*', mapRemoteUrl: 'http://localhost:3000/v2', delayMs: 7 })], itemMocks: [] });
    const expected = { kind: 'forward', url: 'http://localhost:3000/v2/users?x=1', delayMs: 7, mockedBy: { kind: 'mapRemote', id: 'map', mappedUrl: 'http://localhost:3000/v2/users?x=1' } };
    expect(mocks.peek('GET', 'https://api.example.com/v1/users?x=1')).toEqual(expected);
    expect(await mocks.decide(request('https://api.example.com/v1/users?x=1'))).toEqual(expected);
  });

  it('runs dynamic routes in the sandbox; a failing handler answers 500 and is reported', async () => {
    const { mocks, logs, errors } = engine();
    mocks.apply({
      revision: 1,
      routes: [
        routeOf('dyn', { responseMode: 'dynamic', mockedUrl: '/calc?n=*', code: 'function handler(r) { console.log("n", r.query.n); return { body: { double: Number(r.query.n) * 2 } }; }' }),
        routeOf('loop', { responseMode: 'dynamic', mockedUrl: '/loop', code: 'function handler() { while (true) {} }' }),
      ],
      itemMocks: [],
    });
    expect(await mocks.decide(request('https://x.example/calc?n=21'))).toMatchObject({ status: 200, body: '{"double":42}', headers: { 'Content-Type': 'application/json', 'Spyglass-Intercepted': 'dyn' } });
    expect(logs).toEqual([['dyn', [expect.objectContaining({ message: 'n 21', level: 'log' })]]]);
    const failed = await mocks.decide(request('https://x.example/loop'));
    expect(failed).toMatchObject({ status: 500, mockedBy: { kind: 'route', id: 'loop' } });
    expect(JSON.parse((failed as { body: string }).body)).toEqual({ error: 'Mock handler failed: Error: the handler ran longer than 50 ms and was stopped' });
    expect(errors).toEqual([['loop', 'Error: the handler ran longer than 50 ms and was stopped']]);
    // The next request gets a fresh sandbox, and fails the same way rather than hanging.
    expect(await mocks.decide(request('https://x.example/loop'))).toMatchObject({ status: 500 });
  });

  it('answers 500 when a handler holds more memory than the limit, however it is split', async () => {
    const { mocks, errors } = engine();
    mocks.apply({ revision: 1, itemMocks: [], routes: [routeOf('big', {
      responseMode: 'dynamic', mockedUrl: '/big',
      // 42 MB of text in three strings, each under the 16 MB limit.
      code: "function handler() { const parts = ['x', 'y', 'z'].map((c) => c.repeat(14 * 1024 * 1024)); return { body: String(parts.reduce((n, p) => n + p.length, 0)) }; }",
    })] });
    expect(await mocks.decide(request('https://x.example/big'))).toMatchObject({ status: 500 });
    expect(errors).toEqual([['big', 'Error: the handler used more than 16 MB of memory and was stopped']]);
  });
});
