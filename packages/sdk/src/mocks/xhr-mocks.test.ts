import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockData, type DeviceMocks, type NetworkDetails } from '@spyglass/protocol';
import { ProtocolServer } from '../testing/protocol-server';

/** Mocks applied to XMLHttpRequest and fetch in Chromium, with the SDK as a browser app bundles it. */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p): p is string => !!p && fs.existsSync(p));
const WASM = fileURLToPath(import.meta.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));

describe.skipIf(!CHROMIUM)('mocks in Chromium', () => {
  let protocol: ProtocolServer;
  let site: http.Server;
  let siteUrl: string;
  let other: http.Server;
  let otherUrl: string;
  let browser: Browser;
  let page: Page;
  const hits: string[] = [];

  beforeAll(async () => {
    protocol = await ProtocolServer.start();
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../browser.ts', import.meta.url))],
      bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022',
    });
    const sdk = bundle.outputFiles[0]!.text;
    site = http.createServer((req, res) => {
      if (req.url === '/sdk.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
      if (req.url === '/quickjs.wasm') return void res.writeHead(200, { 'content-type': 'application/wasm' }).end(fs.readFileSync(WASM));
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title>');
      hits.push(`site ${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ server: 'site', url: req.url }));
    });
    other = http.createServer((req, res) => {
      // Another origin: the page's custom header needs a CORS preflight.
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      hits.push(`other ${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify({ server: 'other', url: req.url }));
    });
    await Promise.all([new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)), new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))]);
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await (await browser.newContext()).newPage();
    await page.goto(siteUrl);
    await page.evaluate(`(async () => {
      const { createSpyglass } = await import('/sdk.js');
      window.spyglass = createSpyglass({ serverUrl: ${JSON.stringify(protocol.url)}, apiKey: 'sg_live_browser', flushIntervalMs: 5, mockSandboxWasmUrl: '/quickjs.wasm' });
      await new Promise((resolve) => window.spyglass.on('welcome', resolve));
    })()`);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([site, other].map((s) => new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()))));
    await protocol?.close();
  });

  it('answers XMLHttpRequest and fetch with item mocks and routes, and maps remote', async () => {
    const mocks: DeviceMocks = {
      revision: 1,
      itemMocks: [{ itemId: 'item-7', method: 'GET', url: `${siteUrl}/api/user\\?id=7`, statusCode: 418, headers: { 'Content-Type': 'application/json', 'X-Teapot': 'yes' }, body: '{"teapot":true}', delayMs: 50, updatedAt: '2026-01-01T00:00:00.000Z' }],
      routes: [
        { id: 'route-todos', createdAt: '2026-01-01T00:00:00.000Z', mockData: MockData.parse({ method: 'POST', mockedUrl: '/api/todos/*', statusCode: 201, headers: [{ key: 'Content-Type', value: 'application/json' }], body: '[{"id":1}]' }) },
        { id: 'route-map', createdAt: '2026-01-01T00:00:00.000Z', mockData: MockData.parse({ mode: 'mapRemote', method: 'GET', mockedUrl: `${siteUrl}/v1/*`, mapRemoteUrl: `${otherUrl}/v2`, statusCode: 200, delayMs: 300 }) },
      ],
    };
    protocol.send({ type: 'command', id: 'm1', name: 'mocks', args: mocks });
    await expect.poll(() => protocol.frames.some((f) => f.type === 'result' && f.commandId === 'm1')).toBe(true);
    expect(protocol.frames.find((f) => f.type === 'result' && f.commandId === 'm1')).toMatchObject({ ok: true, data: { routes: 2, itemMocks: 1 } });

    const seen = await page.evaluate(`(async () => {
      const xhr = (method, url, body, responseType = '') => new Promise((resolve) => {
        const request = new XMLHttpRequest();
        const events = [];
        request.open(method, url);
        request.responseType = responseType;
        request.setRequestHeader('x-app', 'shop');
        request.onreadystatechange = () => events.push('readystatechange:' + request.readyState);
        request.onload = () => events.push('load');
        request.onloadend = () => resolve({ status: request.status, body: request.response, intercepted: request.getResponseHeader('spyglass-intercepted'), teapot: request.getResponseHeader('x-teapot'), events });
        request.send(body);
      });
      const results = {
        item: await xhr('GET', '/api/user?id=7', null, 'json'),
        route: await xhr('POST', '/api/todos/list', '{"a":1}'),
        mapped: await (async () => { const started = Date.now(); const answer = await xhr('GET', '/v1/users?x=1', null, 'json'); return { ...answer, ms: Date.now() - started }; })(),
        real: await xhr('GET', '/api/user?id=8', null, 'json'),
        fetched: await (async () => { const r = await fetch('/api/user?id=7'); return { status: r.status, body: await r.json(), intercepted: r.headers.get('spyglass-intercepted') }; })(),
      };
      await window.spyglass.flush();
      return results;
    })()`) as Record<string, { status: number; body: unknown; intercepted: string | null; teapot?: string | null; events?: string[] }>;

    expect(seen.item).toMatchObject({ status: 418, body: { teapot: true }, intercepted: 'item-7', teapot: 'yes' });
    // The mapRemote route's delay is waited before the request goes on.
    expect((seen.mapped as unknown as { ms: number }).ms).toBeGreaterThanOrEqual(295);
    expect(seen.item!.events).toEqual(expect.arrayContaining(['readystatechange:4', 'load']));
    expect(seen.route).toMatchObject({ status: 201, body: '[{"id":1}]', intercepted: 'route-todos' });
    expect(seen.mapped).toMatchObject({ status: 200, body: { server: 'other', url: '/v2/users?x=1' } });
    expect(seen.real).toMatchObject({ status: 200, body: { server: 'site', url: '/api/user?id=8' } });
    expect(seen.fetched).toEqual({ status: 418, body: { teapot: true }, intercepted: 'item-7' });
    expect(hits.filter((h) => !h.endsWith('/favicon.ico'))).toEqual(['other GET /v2/users?x=1', 'site GET /api/user?id=8']);

    const network = [...protocol.stored.values()].flatMap((i) => (i.type === 'network' ? [{ isMocked: i.isMocked, details: i.details as NetworkDetails }] : []));
    const mockedItems = network.filter((n) => n.isMocked);
    expect(mockedItems.map((n) => n.details.mockedBy?.kind).sort()).toEqual(['item', 'item', 'mapRemote', 'route']);
    expect(mockedItems.find((n) => n.details.mockedBy?.kind === 'route')?.details).toMatchObject({ request: { method: 'POST', body: '{"a":1}', headers: { 'x-app': 'shop' } }, response: { statusCode: 201 } });
  });

  it('runs dynamic routes in the QuickJS sandbox of the page', async () => {
    const code = 'function handler(r) { return { status: 200, body: { double: Number(r.query.n) * 2 } }; }';
    protocol.send({ type: 'command', id: 'm2', name: 'mocks', args: {
      revision: 2, itemMocks: [],
      routes: [{ id: 'route-dyn', createdAt: '2026-01-01T00:00:00.000Z', mockData: MockData.parse({ method: 'GET', mockedUrl: '/calc?n=*', statusCode: 200, responseMode: 'dynamic', code }) }],
    } satisfies DeviceMocks });
    await expect.poll(() => protocol.frames.some((f) => f.type === 'result' && f.commandId === 'm2')).toBe(true);
    const answers = await page.evaluate(`(async () => {
      const viaFetch = await (await fetch('/calc?n=21')).json();
      const viaXhr = await new Promise((resolve) => {
        const request = new XMLHttpRequest();
        request.open('GET', '/calc?n=5');
        request.responseType = 'json';
        request.onloadend = () => resolve(request.response);
        request.send();
      });
      return [viaFetch, viaXhr];
    })()`);
    expect(answers).toEqual([{ double: 42 }, { double: 10 }]);
  });
});
