import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceItem, type NetworkDetails } from '@spyglass/protocol';
import type { CaptureHooks } from './hooks';
import { installNodeHttpCapture } from './node-http';

let server: http.Server;
let base: string;
let undo: () => void;
const items: DeviceItem[] = [];
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify({ zipped: true, items: [1, 2, 3] })));
      } else if (req.url === '/png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
      } else if (req.url === '/half') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        res.write('only part');
        setTimeout(() => res.destroy(), 20);
      } else {
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-server': 'test' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hooks: CaptureHooks = {
    shouldCapture: (url) => !url.includes('/ignored'),
    maxBodyBytes: 1024 * 1024,
    interceptors: [],
    record: (item) => items.push(DeviceItem.parse(JSON.parse(JSON.stringify(item)))),
    around: (request) => request(),
    recordedAbove: () => false,
  };
  undo = await installNodeHttpCapture(hooks);
});
afterAll(async () => {
  undo();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The last version of the item of the request to `path` once it is complete. */
async function exchange(path: string): Promise<NetworkDetails> {
  const done = () => items.filter((i) => i.type === 'network' && i.details.request.url.endsWith(path) && (i.details.response || i.details.error)).at(-1);
  await expect.poll(() => done()).toBeDefined();
  return (done() as Extract<DeviceItem, { type: 'network' }>).details;
}

function request(options: http.RequestOptions, body?: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: new URL(base).port, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    for (const part of body ?? []) req.write(part);
    req.end();
  });
}

describe('node:http capture', () => {
  it('records a request written in parts and its response, leaving both to the app', async () => {
    const res = await request({ method: 'POST', path: '/orders?ref=7', headers: { 'content-type': 'application/json', 'x-app': '1' } }, ['{"sku":', '"A1"}']);
    expect(res).toEqual({ status: 201, text: JSON.stringify({ method: 'POST', url: '/orders?ref=7', body: '{"sku":"A1"}' }) });
    const details = await exchange('/orders?ref=7');
    expect(details.request).toMatchObject({ method: 'POST', url: `${base}/orders?ref=7`, body: '{"sku":"A1"}', query: { ref: '7' }, headers: { 'x-app': '1' } });
    expect(details.response).toMatchObject({ statusCode: 201, statusText: 'Created', httpVersion: 'HTTP/1.1', headers: { 'x-server': 'test' }, body: res.text });
    expect(details.timings?.total).toBeGreaterThanOrEqual(0);
  });

  it('captures axios, with gzip undone as axios does and binary bodies as base64', async () => {
    const zipped = await axios.get(`${base}/gzip`);
    expect(zipped.data).toEqual({ zipped: true, items: [1, 2, 3] });
    const image = await axios.get(`${base}/png`, { responseType: 'arraybuffer' });
    expect(Buffer.from(image.data as ArrayBuffer).equals(PNG)).toBe(true);
    const posted = await axios.post(`${base}/axios`, { hello: 'world' });
    expect(posted.status).toBe(201);

    expect((await exchange('/gzip')).response).toMatchObject({ body: '{"zipped":true,"items":[1,2,3]}', bodyEncoding: 'utf8', headers: { 'content-encoding': 'gzip' } });
    expect((await exchange('/png')).response).toMatchObject({ bodyEncoding: 'base64', body: PNG.toString('base64') });
    expect((await exchange('/axios')).request).toMatchObject({ method: 'POST', body: '{"hello":"world"}' });
  });

  it('records a refused connection and the app gets the same error', async () => {
    const error = await new Promise<Error>((resolve) => http.get('http://127.0.0.1:9/refused').on('error', resolve));
    expect(error.message).toContain('ECONNREFUSED');
    expect((await exchange('/refused')).error).toContain('ECONNREFUSED');
  });

  it('records a response cut off midway', async () => {
    const outcome = await new Promise<string>((resolve) => {
      http.get(`${base}/half`, (res) => {
        res.on('data', () => undefined);
        res.on('error', (e) => resolve(`error ${e.message}`));
        res.on('aborted', () => resolve('aborted'));
        res.on('end', () => resolve('end'));
      });
    });
    expect(outcome).not.toBe('end');
    const details = await exchange('/half');
    expect(details.error).toBeDefined();
    expect(details.response).toMatchObject({ statusCode: 200, body: 'only part' });
  });

  it('skips ignored URLs', async () => {
    await request({ path: '/ignored' });
    expect(items.some((i) => i.type === 'network' && i.details.request.url.includes('/ignored'))).toBe(false);
  });
});
