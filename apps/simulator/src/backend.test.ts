import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBackend, type FakeBackend } from './backend';

describe('fake backend', () => {
  let backend: FakeBackend;
  beforeAll(async () => {
    backend = await startFakeBackend();
  });
  afterAll(() => backend.close());

  it('answers every content type and failure the traffic asks for', async () => {
    const type = async (path: string, init?: RequestInit) => {
      const res = await fetch(backend.url + path, init);
      await res.arrayBuffer();
      return [res.status, res.headers.get('content-type')?.split(';')[0]];
    };
    expect(await type('/api/products?page=2')).toEqual([200, 'application/json']);
    expect(await type('/api/products/999')).toEqual([404, 'application/json']);
    expect(await type('/api/feed.xml')).toEqual([200, 'application/xml']);
    expect(await type('/help')).toEqual([200, 'text/html']);
    expect(await type('/api/health')).toEqual([200, 'text/plain']);
    expect(await type('/images/hero.png')).toEqual([200, 'image/png']);
    expect(await type('/files/invoice.pdf')).toEqual([200, 'application/pdf']);
    expect(await type('/api/login', { method: 'POST', body: new URLSearchParams({ username: 'a', password: 'hunter2' }) })).toEqual([401, 'application/json']);
    expect(await type('/api/payments', { method: 'POST', body: '{}' })).toEqual([502, 'application/json']);
    expect(await type('/api/crash')).toEqual([500, 'text/plain']);
    const catalog = await fetch(`${backend.url}/api/catalog/export`);
    expect((await catalog.arrayBuffer()).byteLength).toBeGreaterThan(64 * 1024);
    await expect(fetch(`${backend.url}/api/reset`)).rejects.toThrow('fetch failed');
  });
});
