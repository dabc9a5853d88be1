import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkDetails } from '@spyglass/protocol';
import { ProtocolServer } from './testing/protocol-server';

/**
 * The SDK as a browser app bundles it, in Debian's Chromium: global WebSocket, localStorage,
 * XMLHttpRequest and fetch of the page, console capture.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p): p is string => !!p && fs.existsSync(p));
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe.skipIf(!CHROMIUM)('SDK in Chromium', () => {
  let protocol: ProtocolServer;
  let site: http.Server;
  let siteUrl: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    protocol = await ProtocolServer.start();
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('./browser.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'esm',
      splitting: true,
      outdir: '/',
      entryNames: 'sdk',
      platform: 'browser',
      target: 'es2022',
      // The browser entry reaches no Node module (the build fails if it does); QuickJS is
      // loaded only by a dynamic route, which these tests do not send.
      external: ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
    });
    // The entry and its lazy chunks, by URL path.
    const scripts = new Map(bundle.outputFiles.map((file) => [file.path, file.text]));
    site = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const script = scripts.get(req.url ?? '');
        if (script) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
        if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>app</p>');
        if (req.url === '/api/echo') return void res.writeHead(201, { 'content-type': 'application/json', 'x-echo': '1' }).end(JSON.stringify({ got: Buffer.concat(chunks).toString() }));
        if (req.url === '/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        res.writeHead(404, { 'content-type': 'text/plain' }).end('missing');
      });
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await (await browser.newContext()).newPage();
    await page.goto(siteUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => site?.close(() => resolve()));
    await protocol?.close();
  });

  // Page code is plain JavaScript in strings: it runs in Chromium, untouched by the test's transform.
  const startInPage = (serverUrl: string) => page.evaluate(`(async () => {
    const { createSpyglass } = await import('/sdk.js');
    const spyglass = createSpyglass({ serverUrl: ${JSON.stringify(serverUrl)}, apiKey: 'sg_live_browser', capture: { console: true }, flushIntervalMs: 5 });
    window.spyglass = spyglass;
    await new Promise((resolve) => spyglass.on('welcome', resolve));
  })()`);

  it('connects with detected browser fields and keeps its install id in localStorage', async () => {
    await startInPage(protocol.url);
    const hello = protocol.hellos[0]!;
    expect(hello.device).toMatchObject({ platform: 'web', type: 'Browser', clientAppDisplayName: 'Shop', bundleId: new URL(siteUrl).host, screenWidth: expect.any(Number) });
    expect(await page.evaluate(`localStorage.getItem('spyglass.installId')`)).toBe(hello.deviceId);
  });

  it('captures XMLHttpRequest, fetch and console output without changing what the page gets', async () => {
    const seen = await page.evaluate(`(async () => {
      const xhr = (method, url, body, responseType = '') => new Promise((resolve) => {
        const request = new XMLHttpRequest();
        request.open(method, url);
        request.responseType = responseType;
        request.setRequestHeader('x-app', 'shop');
        request.onloadend = () => resolve(request.status === 0 ? 'failed' : responseType === 'arraybuffer' ? request.response.byteLength : request.response);
        request.send(body);
      });
      const results = [
        await xhr('POST', '/api/echo', '{"a":1}'),
        await xhr('GET', '/logo.png', null, 'arraybuffer'),
        await xhr('GET', '/api/echo', null, 'json'),
        await xhr('GET', 'http://127.0.0.1:9/refused', null),
        await (await fetch('/api/echo', { method: 'POST', body: 'from fetch' })).json(),
      ];
      console.warn('low disk: %d MB', 512);
      await window.spyglass.flush();
      return results;
    })()`);
    expect(seen).toEqual(['{"got":"{\\"a\\":1}"}', PNG.length, { got: '' }, 'failed', { got: 'from fetch' }]);

    const items = [...protocol.stored.values()];
    const network = items.flatMap((i) => (i.type === 'network' ? [i.details as NetworkDetails] : []));
    expect(network).toHaveLength(5);
    const byUrl = (suffix: string, method = 'GET') => network.find((d) => d.request.url.endsWith(suffix) && d.request.method === method)!;
    expect(byUrl('/api/echo', 'POST').request).toMatchObject({ url: `${siteUrl}/api/echo`, headers: { 'x-app': 'shop' } });
    const posts = network.filter((d) => d.request.method === 'POST');
    expect(posts.map((d) => d.request.body).sort()).toEqual(['from fetch', '{"a":1}']);
    expect(posts.every((d) => d.response?.statusCode === 201 && d.response.headers['x-echo'] === '1')).toBe(true);
    expect(byUrl('/logo.png').response).toMatchObject({ statusCode: 200, bodyEncoding: 'base64', body: PNG.toString('base64') });
    expect(byUrl('/api/echo').response).toMatchObject({ body: '{"got":""}' });
    expect(byUrl('/refused')).toMatchObject({ error: 'Network request failed' });
    expect(byUrl('/refused').response).toBeUndefined();
    const log = items.find((i) => i.type === 'log');
    expect(log).toMatchObject({ level: 'warning', details: { message: 'low disk: 512 MB', category: 'console' } });
  });

  it('records a fetch built on XMLHttpRequest (as in React Native) once', async () => {
    const rn = await (await browser.newContext()).newPage();
    await rn.goto(siteUrl);
    const answer = await rn.evaluate(`(async () => {
      // whatwg-fetch, which React Native ships, in a few lines: fetch opens an XMLHttpRequest.
      window.fetch = (url, init = {}) => new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open(init.method || 'GET', url);
        xhr.onload = () => resolve(new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') } }));
        xhr.onerror = () => reject(new TypeError('Network request failed'));
        xhr.send(init.body ?? null);
      });
      const { createSpyglass } = await import('/sdk.js');
      const spyglass = createSpyglass({ serverUrl: ${JSON.stringify(protocol.url)}, apiKey: 'sg_live_rn', installId: 'rn-like', flushIntervalMs: 5 });
      await new Promise((resolve) => spyglass.on('welcome', resolve));
      const body = await (await fetch('/api/echo', { method: 'POST', body: 'over xhr' })).json();
      await spyglass.flush();
      return body;
    })()`);
    expect(answer).toEqual({ got: 'over xhr' });
    const recorded = [...protocol.stored.values()].filter((i) => i.type === 'network' && i.details.request.body === 'over xhr');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ details: { response: { statusCode: 201, body: '{"got":"over xhr"}' } } });
  });
});
