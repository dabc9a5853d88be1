import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceItem, type NetworkDetails } from '@spyglass/protocol';
import type { CaptureHooks } from './hooks';
import { installUndiciCapture } from './undici';

let server: http.Server;
let base: string;
let undo: () => void;
let above = false;
const items: DeviceItem[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify({ zipped: true })));
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-server': 'test' });
      res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hooks: CaptureHooks = {
    shouldCapture: () => true,
    maxBodyBytes: 1024 * 1024,
    interceptors: [],
    record: (item) => items.push(DeviceItem.parse(JSON.parse(JSON.stringify(item)))),
    around: (request) => request(),
    recordedAbove: () => above,
  };
  undo = await installUndiciCapture(hooks);
});
afterAll(async () => {
  undo();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function exchange(path: string): Promise<NetworkDetails> {
  const done = () => items.filter((i) => i.type === 'network' && i.details.request.url.endsWith(path) && (i.details.response || i.details.error)).at(-1);
  await expect.poll(() => done()).toBeDefined();
  return (done() as Extract<DeviceItem, { type: 'network' }>).details;
}

describe('undici capture', () => {
  it("records the undici package's fetch with both bodies, gzip undone as fetch does", async () => {
    const res = await undiciFetch(`${base}/orders?x=1`, { method: 'POST', body: '{"sku":"A1"}', headers: { 'content-type': 'application/json' } });
    expect(await res.json()).toEqual({ method: 'POST', body: '{"sku":"A1"}' });
    const details = await exchange('/orders?x=1');
    expect(details.request).toMatchObject({ method: 'POST', url: `${base}/orders?x=1`, body: '{"sku":"A1"}', query: { x: '1' }, headers: { 'content-type': 'application/json' } });
    expect(details.response).toMatchObject({ statusCode: 201, headers: { 'x-server': 'test' }, body: '{"method":"POST","body":"{\\"sku\\":\\"A1\\"}"}' });

    expect(await (await undiciFetch(`${base}/gzip`)).json()).toEqual({ zipped: true });
    expect((await exchange('/gzip')).response).toMatchObject({ body: '{"zipped":true}', headers: { 'content-encoding': 'gzip' } });
  });

  it("records undici's request API and transport errors", async () => {
    const { statusCode, body } = await undiciRequest(`${base}/plain`, { method: 'PUT', body: 'text body' });
    expect(statusCode).toBe(200);
    expect(await body.json()).toEqual({ method: 'PUT', body: 'text body' });
    expect((await exchange('/plain')).request).toMatchObject({ method: 'PUT', body: 'text body' });

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(undiciFetch(`http://127.0.0.1:${port}/refused`)).rejects.toThrow('fetch failed');
    expect((await exchange('/refused')).error).toContain('ECONNREFUSED');
  });

  it('leaves out what the fetch wrapper above already records', async () => {
    above = true;
    try {
      await (await undiciFetch(`${base}/above`)).text();
    } finally {
      above = false;
    }
    expect(items.some((i) => i.type === 'network' && i.details.request.url.endsWith('/above'))).toBe(false);
  });
});
