import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { INTERCEPTED_HEADER, RequestsPage, type CapturedItem, type MockedRoute } from '@spyglass/protocol';
import { build as esbuild } from 'esbuild';
import type { Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpByApi, type TestAccount } from './support/accounts';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { appWithSdk, callApi, packSdk } from './support/sdk-package';

/**
 * A web app that installed the packed SDK and bundles it with Vite, esbuild or webpack 5, with no
 * SDK-specific bundler configuration, running in Chromium against the real server.
 */

// The app's code, as a user writes it: the server and key come from the page's query.
const MAIN = `import { createSpyglass } from '@spyglass/sdk';
const params = new URLSearchParams(location.search);
const spyglass = createSpyglass({ serverUrl: params.get('server'), apiKey: params.get('key'), flushIntervalMs: 10 });
window.spyglass = spyglass;
window.welcomed = new Promise((resolve) => spyglass.on('welcome', resolve));
`;
const HTML = (script: string, type = 'module') => `<!doctype html><html><head><title>Shop</title><script type="${type}" src="${script}"></script></head><body>shop</body></html>`;

type Bundler = 'vite' | 'esbuild' | 'webpack';

/** webpack 5 as the app installs it (it is no dependency of this repository). */
interface Webpack {
  (config: object, callback: (error: Error | null, stats?: { hasErrors(): boolean; toString(options: string): string }) => void): void;
}

/** Serves a built app and its backend (`/api/*`) on one origin. */
async function serveApp(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { pathname } = new URL(req.url ?? '/', 'http://x');
      if (pathname === '/api/echo') return void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ got: Buffer.concat(chunks).toString(), method: req.method }));
      const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
      if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      const type = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' }[path.extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the packed SDK bundled for the browser', () => {
  const env = useE2eEnvironment();
  let account: TestAccount;
  let app: string;
  const sites = {} as Record<Bundler, { url: string; close(): Promise<void> }>;

  beforeAll(async () => {
    const tarball = await packSdk();
    app = await appWithSdk(tarball, { 'src/main.js': MAIN, 'index.html': HTML('/src/main.js'), 'static/index.html': HTML('/main.js'), 'static/classic.html': HTML('/main.js', 'text/javascript') }, { webpack: '^5.100.0' });
    account = await signUpByApi(env.server);
    // The bundlers of this repository, run on the app's folder: they resolve the SDK from the
    // app's node_modules, through the package's exports, as in the app's own build.
    await viteBuild({ root: app, configFile: false, logLevel: 'warn', build: { outDir: path.join(app, 'dist-vite'), emptyOutDir: true } });
    await esbuild({ absWorkingDir: app, entryPoints: ['src/main.js'], bundle: true, format: 'esm', platform: 'browser', splitting: true, outdir: 'dist-esbuild', logLevel: 'warning' });
    fs.copyFileSync(path.join(app, 'static/index.html'), path.join(app, 'dist-esbuild/index.html'));
    const webpack = (await import(path.join(app, 'node_modules/webpack/lib/index.js'))).default as Webpack;
    await new Promise<void>((resolve, reject) => webpack({ mode: 'production', context: app, entry: './src/main.js', output: { path: path.join(app, 'dist-webpack'), publicPath: '/' } }, (error, stats) => {
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats!.toString('errors-only')));
      else resolve();
    }));
    fs.copyFileSync(path.join(app, 'static/classic.html'), path.join(app, 'dist-webpack/index.html'));
    for (const bundler of ['vite', 'esbuild', 'webpack'] as const) sites[bundler] = await serveApp(path.join(app, `dist-${bundler}`));
  }, 300_000);
  afterAll(async () => {
    await Promise.all(Object.values(sites).map((site) => site.close()));
    if (app) fs.rmSync(app, { recursive: true, force: true });
  });

  /** Opens the app, waits for the welcome, answers the page and its device id. */
  async function openApp(bundler: Bundler): Promise<{ page: Page; deviceId: string }> {
    const page = await (await newContext(env.browser, sites[bundler].url)).newPage();
    await page.goto(`/?${new URLSearchParams({ server: env.server.url, key: account.profile.apiKey }).toString()}`);
    const deviceId = await page.evaluate(`window.welcomed.then(() => window.spyglass.deviceId)`) as string;
    return { page, deviceId };
  }
  const storedNetwork = async (deviceId: string) =>
    RequestsPage.parse(await callApi(env.server.url, account.token, 'GET', `/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=100`)).items.filter((i) => i.type === 'network');

  it.each(['vite', 'esbuild', 'webpack'] as const)('captures fetch and XMLHttpRequest when bundled by %s', async (bundler) => {
    const { page, deviceId } = await openApp(bundler);
    const answers = await page.evaluate(`(async () => {
      const viaFetch = await (await fetch('/api/echo', { method: 'POST', body: 'from fetch' })).json();
      const viaXhr = await new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/echo');
        xhr.onloadend = () => resolve(JSON.parse(xhr.responseText));
        xhr.send('from xhr');
      });
      return [viaFetch, viaXhr];
    })()`);
    expect(answers).toEqual([{ got: 'from fetch', method: 'POST' }, { got: 'from xhr', method: 'POST' }]);
    await expect.poll(async () => (await storedNetwork(deviceId)).filter((i) => i.status === 201).length, { timeout: 15_000 }).toBe(2);
    const bodies = await Promise.all((await storedNetwork(deviceId)).map(async (item) =>
      (await callApi<CapturedItem & { type: 'network' }>(env.server.url, account.token, 'GET', `/v1/requests/${item.id}`)).details));
    expect(bodies.map((d) => [d.request.url, d.request.body, d.response?.body]).sort()).toEqual([
      [`${sites[bundler].url}/api/echo`, 'from fetch', '{"got":"from fetch","method":"POST"}'],
      [`${sites[bundler].url}/api/echo`, 'from xhr', '{"got":"from xhr","method":"POST"}'],
    ]);
    await page.context().close();
  });

  it.each(['vite', 'webpack'] as const)('answers the page from a dynamic mocked route when bundled by %s, with no extra configuration', async (bundler) => {
    const { page, deviceId } = await openApp(bundler);
    const route = await callApi<MockedRoute>(env.server.url, account.token, 'POST', '/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: {
        mode: 'default', responseMode: 'dynamic', method: 'GET', mockedUrl: `${sites[bundler].url}/api/price?sku=*`, statusCode: 200,
        code: 'function handler(request) { return { status: 200, body: { sku: request.query.sku, price: request.query.sku.length * 7 } }; }',
      },
    });
    // The route reaches the page as the device's next mocks set; QuickJS and its .wasm load then.
    const ask = () => page.evaluate(`fetch('/api/price?sku=AB12').then(async (r) => ({ by: r.headers.get('${INTERCEPTED_HEADER}'), body: await r.text() }))`);
    await expect.poll(ask, { timeout: 20_000 }).toEqual({ by: route.id, body: '{"sku":"AB12","price":28}' });
    await page.context().close();
  });
});
