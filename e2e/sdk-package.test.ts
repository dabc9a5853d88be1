import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RequestsPage, type Device } from '@spyglass/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpByApi, type TestAccount } from './support/accounts';
import { appWithSdk, callApi, packSdk, runNode, tarballContents, typecheck } from './support/sdk-package';
import { startServer, type RunningServer } from './support/server';

/**
 * A stranger's first step, as in the README: `npm install @spyglass/sdk` into an app outside this
 * repository (from the packed tarball), then plain `node`: the app's fetch reaches the dashboard.
 */

// The app under test, as a user writes it: start Spyglass, call the backend, read the answer.
const ESM_APP = `import { createSpyglass } from '@spyglass/sdk';
const spyglass = createSpyglass({ serverUrl: process.env.SPYGLASS_URL, apiKey: process.env.SPYGLASS_KEY, device: { name: 'Kiosk (ESM)' }, onError: (e) => console.error('spyglass:', e.message) });
await new Promise((resolve) => spyglass.on('welcome', resolve));
const res = await fetch(process.env.BACKEND_URL + '/orders?from=esm', { method: 'POST', body: '{"sku":"A1"}', headers: { 'content-type': 'application/json' } });
console.log(JSON.stringify({ deviceId: spyglass.deviceId, answer: await res.json() }));
await spyglass.flush();
await spyglass.stop();
`;
const CJS_APP = `const { createSpyglass, SpyglassError } = require('@spyglass/sdk');
const spyglass = createSpyglass({ serverUrl: process.env.SPYGLASS_URL, apiKey: process.env.SPYGLASS_KEY, device: { name: 'Kiosk (CommonJS)' } });
spyglass.on('welcome', async () => {
  const res = await fetch(process.env.BACKEND_URL + '/orders?from=cjs');
  console.log(JSON.stringify({ deviceId: spyglass.deviceId, answer: await res.json(), errorClass: typeof SpyglassError }));
  await spyglass.flush();
  await spyglass.stop();
});
`;
// Strict TypeScript against the packed types, as ESM and as CommonJS.
const TS_CONSUMER = `import { createSpyglass, SpyglassError, type RequestInterceptor, type SpyglassClient, type SpyglassOptions } from '@spyglass/sdk';
const options: SpyglassOptions = { serverUrl: 'https://spyglass.example.com', apiKey: 'sg_live_x', device: { platform: 'node', batteryLevel: 0.5 }, capture: { console: true } };
const client: SpyglassClient = createSpyglass(options);
const addHeader: RequestInterceptor = (request, next) => next({ headers: { ...request.headers, 'x-trace': request.id } });
client.addInterceptor(addHeader);
client.on('error', (error: SpyglassError) => console.log(error.code, error.fatal));
client.on('featureToggles', (toggles) => console.log(toggles.network satisfies boolean));
const id: string | undefined = client.log('ready', { level: 'info', stackTrace: new Error('here'), metadata: { a: 1 } });
// @ts-expect-error a level the protocol does not know
client.log('bad', { level: 'loud' });
// @ts-expect-error platform is one of the protocol's
client.updateDevice({ platform: 'windows' });
export { id };
`;
// nodenext reads .mts as ESM (the `import` types) and .cts as CommonJS (the `require` types).
const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, include: ['consumer.mts', 'consumer.cts'] });

describe('the packed SDK in a Node app outside the repository', () => {
  let server: RunningServer;
  let account: TestAccount;
  let backend: http.Server;
  let backendUrl: string;
  let tarball: string;
  let app: string;
  let configHome: string;

  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path: req.url })));
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    [server, tarball] = await Promise.all([startServer(), packSdk()]);
    account = await signUpByApi(server);
    app = await appWithSdk(tarball, {
      'app.mjs': ESM_APP,
      'app.cjs': CJS_APP,
      'consumer.mts': TS_CONSUMER,
      'consumer.cts': TS_CONSUMER,
      'tsconfig.json': TSCONFIG,
    }, { '@types/node': '^20.19.0' });
    // The app's config directory, where the Node SDK keeps its install id.
    configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-config-'));
  }, 300_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (backend ? backend.close(() => resolve()) : resolve()));
    await server?.stop();
    for (const dir of [app, configHome]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ SPYGLASS_URL: server.url, SPYGLASS_KEY: account.profile.apiKey, BACKEND_URL: backendUrl, XDG_CONFIG_HOME: configHome });
  const networkItems = async (deviceId: string) =>
    RequestsPage.parse(await callApi(server.url, account.token, 'GET', `/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=100`)).items.filter((i) => i.type === 'network');

  it('ships only what runs: the builds, their types and maps, no sources and no workspace package', async () => {
    const { files, manifest } = await tarballContents(tarball);
    expect(files.filter((f) => !/^dist\/.+\.(js|cjs|d\.ts|d\.cts|map)$/.test(f)).sort()).toEqual(['CHANGELOG.md', 'README.md', 'package.json']);
    expect(files).toEqual(expect.arrayContaining(['dist/node/index.js', 'dist/node/index.cjs', 'dist/browser/index.js', 'dist/react-native/index.js', 'dist/index.d.ts', 'dist/index.d.cts']));
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(['@jitl/quickjs-wasmfile-release-sync', 'quickjs-emscripten-core', 'ws']);
    expect(JSON.stringify(manifest.dependencies)).not.toContain('@spyglass');
    // The browser and React Native builds reach neither Node's modules nor ws; React Native not QuickJS either.
    const installed = path.join(app, 'node_modules/@spyglass/sdk/dist');
    for (const build of ['browser', 'react-native']) {
      for (const file of fs.readdirSync(path.join(installed, build)).filter((f) => f.endsWith('.js'))) {
        const code = fs.readFileSync(path.join(installed, build, file), 'utf8');
        expect(code, `${build}/${file}`).not.toMatch(/from\s*["'](node:|ws["'])|require\(/);
        if (build === 'react-native') expect(code).not.toContain('quickjs');
      }
    }
    // npm copied the package: nothing links back into the repository.
    expect(fs.lstatSync(path.join(app, 'node_modules/@spyglass/sdk')).isSymbolicLink()).toBe(false);
  });

  it("captures an ESM app's fetch with plain node; the server stores the exchange", async () => {
    const out = JSON.parse(await runNode(app, 'app.mjs', env())) as { deviceId: string; answer: unknown };
    expect(out.answer).toEqual({ ok: true, path: '/orders?from=esm' });
    await expect.poll(async () => (await networkItems(out.deviceId)).find((i) => i.url?.endsWith('from=esm'))?.status, { timeout: 15_000 }).toBe(201);
    const [item] = (await networkItems(out.deviceId)).filter((i) => i.url?.endsWith('from=esm'));
    expect(item).toMatchObject({ method: 'POST', url: `${backendUrl}/orders?from=esm`, status: 201 });
  });

  it('captures a CommonJS app (require) the same way', async () => {
    const out = JSON.parse(await runNode(app, 'app.cjs', env())) as { deviceId: string; answer: unknown; errorClass: string };
    expect(out).toMatchObject({ answer: { ok: true, path: '/orders?from=cjs' }, errorClass: 'function' });
    await expect.poll(async () => (await networkItems(out.deviceId)).find((i) => i.url?.endsWith('from=cjs'))?.status, { timeout: 15_000 }).toBe(201);
  });

  it('is one device however often the app starts', async () => {
    const first = JSON.parse(await runNode(app, 'app.mjs', env())) as { deviceId: string };
    const second = JSON.parse(await runNode(app, 'app.mjs', env())) as { deviceId: string };
    expect(second.deviceId).toBe(first.deviceId);
    const devices = await callApi<Device[]>(server.url, account.token, 'GET', '/v1/devices');
    // This app ran four times (ESM, CommonJS, twice more): one device, as on the dashboard.
    expect(devices.map((d) => d.id)).toEqual([first.deviceId]);
    expect(fs.readdirSync(path.join(configHome, 'spyglass/devices')).filter((f) => f.endsWith('.id'))).toEqual([expect.stringMatching(/^shop-app-[0-9a-f]{12}\.0\.id$/)]);
  });

  it('type-checks a strict TypeScript consumer, ESM and CommonJS, against the packed types', async () => {
    await typecheck(app, 'tsconfig.json');
  });
});
