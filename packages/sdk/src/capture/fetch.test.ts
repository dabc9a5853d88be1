import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceItem } from '@spyglass/protocol';
import { createCapturedFetch } from './fetch';
import type { CaptureHooks } from './hooks';
import type { RequestInterceptor } from './interceptors';

let server: http.Server;
let base: string;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/json') {
        res.writeHead(201, { 'content-type': 'application/json', 'x-trace': 'abc' });
        res.end(JSON.stringify({ echo: body, method: req.method }));
      } else if (path === '/png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      } else if (path === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('z'.repeat(10_000));
      } else if (path === '/reset') {
        req.socket.destroy();
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`no ${req.url}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function harness(options: { interceptors?: RequestInterceptor[]; maxBodyBytes?: number; capture?: boolean } = {}) {
  const items: DeviceItem[] = [];
  const hooks: CaptureHooks = {
    shouldCapture: () => options.capture ?? true,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    interceptors: options.interceptors ?? [],
    record: (item) => items.push(DeviceItem.parse(JSON.parse(JSON.stringify(item)))),
    around: (request) => request(),
    recordedAbove: () => false,
  };
  const fetch = createCapturedFetch(globalThis.fetch, hooks);
  /** The final form of each item, as the server's upsert by id would keep it. */
  const settled = async (count: number) => {
    await expect.poll(() => new Set(items.filter((i) => i.type === 'network' && (i.details.response || i.details.error)).map((i) => i.id)).size).toBe(count);
    const byId = new Map(items.map((i) => [i.id, i]));
    return [...byId.values()].map((i) => (i.type === 'network' ? i.details : undefined)!);
  };
  return { fetch, items, settled };
}

describe('captured fetch', () => {
  it('records the request at start and completes the same item with the response', async () => {
    const { fetch, items, settled } = harness();
    const res = await fetch(`${base}/json?page=2&q=a%20b`, { method: 'post', headers: { 'content-type': 'application/json', 'x-app': '1' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ echo: '{"a":1}', method: 'POST' });
    const [details] = await settled(1);
    expect(items[0]!.type === 'network' && items[0]!.details.response).toBeUndefined();
    expect(items.every((i) => i.id === items[0]!.id)).toBe(true);
    expect(details!.request).toMatchObject({
      method: 'POST', url: `${base}/json?page=2&q=a%20b`, body: '{"a":1}', bodyEncoding: 'utf8',
      query: { page: '2', q: 'a b' }, headers: { 'x-app': '1', 'content-type': 'application/json' },
    });
    expect(details!.response).toMatchObject({ statusCode: 201, statusText: 'Created', bodyEncoding: 'utf8', headers: { 'x-trace': 'abc' } });
    expect(JSON.parse(details!.response!.body!)).toEqual({ echo: '{"a":1}', method: 'POST' });
    expect(details!.timings!.total).toBeGreaterThanOrEqual(0);
  });

  it('reads a Request object body from a clone, leaving the app its request', async () => {
    const { fetch, settled } = harness();
    const request = new Request(`${base}/json`, { method: 'PUT', body: 'payload', headers: { 'content-type': 'text/plain' } });
    const res = await fetch(request);
    expect(((await res.json()) as { echo: string }).echo).toBe('payload');
    const [details] = await settled(1);
    expect(details!.request).toMatchObject({ method: 'PUT', body: 'payload' });
  });

  it('keeps binary bodies as base64 and caps large ones', async () => {
    const { fetch, settled } = harness({ maxBodyBytes: 1000 });
    const image = await fetch(`${base}/png`);
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    const big = await fetch(`${base}/big`);
    expect((await big.text()).length).toBe(10_000);
    const [first, second] = await settled(2);
    expect(first!.response).toMatchObject({ bodyEncoding: 'base64', body: png.toString('base64') });
    expect(second!.response).toMatchObject({ bodyTruncated: true, bodySize: 10_000, body: 'z'.repeat(1000) });
  });

  it('records a transport error and rethrows the very same error', async () => {
    const { fetch, settled } = harness();
    const plain = await globalThis.fetch(`${base}/reset`).catch((e: unknown) => e);
    const captured = await fetch(`${base}/reset`).catch((e: unknown) => e);
    expect(captured).toBeInstanceOf(TypeError);
    expect((captured as Error).message).toBe((plain as Error).message);
    const [details] = await settled(1);
    expect(details!.response).toBeUndefined();
    expect(details!.error).toContain('fetch failed');
  });

  it('passes through untouched when capture is off', async () => {
    const { fetch, items } = harness({ capture: false });
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    expect(items).toEqual([]);
  });

  it('lets an interceptor answer by itself and records it as mocked', async () => {
    const mock: RequestInterceptor = async (request, next, controls) => {
      if (!request.url.endsWith('/mocked')) return next();
      controls.markMocked({ kind: 'route', id: 'route-1' });
      return new Response('{"mocked":true}', { status: 202, headers: { 'content-type': 'application/json' } });
    };
    const { fetch, items, settled } = harness({ interceptors: [mock] });
    const res = await fetch(`${base}/mocked`);
    expect(await res.json()).toEqual({ mocked: true });
    expect((await fetch(`${base}/json`)).status).toBe(201);
    const [mocked, real] = await settled(2);
    expect(mocked!.response).toMatchObject({ statusCode: 202, body: '{"mocked":true}' });
    expect(mocked!.mockedBy).toEqual({ kind: 'route', id: 'route-1' });
    expect(items.find((i) => i.type === 'network' && i.details.response?.statusCode === 202)!.isMocked).toBe(true);
    expect(real!.mockedBy).toBeUndefined();
  });

  it('reads whole bodies where responses have no streams (React Native)', async () => {
    /** whatwg-fetch's Response, as React Native ships it: whole-body reads, no `body` stream. */
    class StreamlessResponse {
      readonly body = null;
      readonly statusText = 'OK';
      readonly headers: Headers;
      constructor(private readonly text_: string, readonly status: number, headers: Record<string, string>) {
        this.headers = new Headers(headers);
      }
      clone() {
        return new StreamlessResponse(this.text_, this.status, Object.fromEntries(this.headers));
      }
      async arrayBuffer() {
        return new TextEncoder().encode(this.text_).buffer;
      }
      async json() {
        return JSON.parse(this.text_) as unknown;
      }
    }
    const { fetch, settled } = harness({ interceptors: [async () => new StreamlessResponse('{"rn":true}', 200, { 'content-type': 'application/json' }) as unknown as Response] });
    expect(await (await fetch(`${base}/rn`)).json()).toEqual({ rn: true });
    const [details] = await settled(1);
    expect(details!.response).toMatchObject({ statusCode: 200, body: '{"rn":true}', bodyEncoding: 'utf8' });
  });

  it('lets interceptors forward a request elsewhere, in chain order', async () => {
    const order: string[] = [];
    const outer: RequestInterceptor = (request, next) => {
      order.push(`outer ${request.url}`);
      return next({ url: request.url.replace('/elsewhere', '/json') });
    };
    const inner: RequestInterceptor = (request, next) => {
      order.push(`inner ${request.url}`);
      return next();
    };
    const { fetch } = harness({ interceptors: [outer, inner] });
    const res = await fetch(`${base}/elsewhere`, { method: 'POST', body: 'moved' });
    expect(await res.json()).toEqual({ echo: 'moved', method: 'POST' });
    expect(order).toEqual([`outer ${base}/elsewhere`, `inner ${base}/json`]);
  });
});
