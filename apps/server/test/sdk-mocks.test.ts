import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DeviceMocks, INTERCEPTED_HEADER, MOCK_LIMITS, interceptedItemId, type CapturedItem, type CommandFrame, type MockedRoute, type NetworkItem } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import { describeApi, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';
import { connectViewer } from './live-clients';

/** An app backend on a random port that answers every request with what it received. */
async function backend(name: string) {
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ server: name, url: req.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** node:http GET, as axios and other Node clients make it. */
function nodeGet(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    }).on('error', reject);
  });
}

/** Resolves with the next mocks set the SDK applied that satisfies `accept`. */
function mocksApplied(client: SpyglassClient, accept: (mocks: DeviceMocks) => boolean): Promise<DeviceMocks> {
  return new Promise((resolve) => {
    const off = client.on('command', (frame: CommandFrame) => {
      if (frame.name !== 'mocks') return;
      const mocks = DeviceMocks.parse(frame.args);
      if (!accept(mocks)) return;
      off();
      resolve(mocks);
    });
  });
}

async function waitForItem(api: ApiClient, deviceId: string, accept: (item: NetworkItem) => boolean): Promise<NetworkItem> {
  const until = Date.now() + 15_000;
  for (;;) {
    const page = await api.get(`/v1/requests?deviceId=${deviceId}`);
    const found = (page.body?.items as CapturedItem[] | undefined)?.find((i): i is NetworkItem => i.type === 'network' && accept(i));
    if (found && found.status !== null) return found;
    if (Date.now() > until) throw new Error('timed out waiting for the item');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeApi('SDK applies mocks', () => {
  let server: TestServer;
  let api: ApiClient;
  let apiKey: string;
  let token: string;
  let app: Awaited<ReturnType<typeof backend>>;
  let other: Awaited<ReturnType<typeof backend>>;
  let client: SpyglassClient;
  let deviceId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const account = await signUp(server.url);
    api = account.api;
    apiKey = account.profile.apiKey;
    token = account.token;
    [app, other] = await Promise.all([backend('production'), backend('other')]);
    // Only the SDK's own fetch and node:http are touched: the test's API calls stay real.
    client = createSpyglass({ serverUrl: server.url, apiKey, installId: `sdk-mocks-${Date.now()}`, capture: { fetch: false, xhr: false, http: true } });
    await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
    deviceId = client.deviceId!;
  });
  afterAll(async () => {
    await client.stop();
    await Promise.all([app?.close(), other?.close(), server?.close()]);
  });

  it('answers the next identical request with an item mock (418, header, JSON body) until it is disabled', async () => {
    const url = `${app.url}/todos/1?expand=owner`;
    const real = await client.fetch(url);
    expect(real.status).toBe(200);
    const captured = await waitForItem(api, deviceId, (i) => i.url === url && !i.isMocked);

    const applied = mocksApplied(client, (m) => m.itemMocks.length === 1);
    const mock = {
      isMocked: true, statusCode: 418, method: 'GET', url, mockedUrl: url.replace('?', '\\?'), delayMs: 200,
      headers: { 'X-Teapot': 'short and stout', 'Content-Type': 'application/json' }, body: '{"teapot":true}',
    };
    expect((await api.put(`/v1/devices/${deviceId}/requests/${captured.id}/mock`, mock)).status).toBe(200);
    await applied;

    const hits = app.seen.length;
    const started = Date.now();
    const mocked = await client.fetch(url);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(mocked.status).toBe(418);
    expect(mocked.headers.get('x-teapot')).toBe('short and stout');
    expect(mocked.headers.get(INTERCEPTED_HEADER)).toBe(captured.id);
    expect(await mocked.json()).toEqual({ teapot: true });

    // node:http clients get the same answer.
    const viaNode = await nodeGet(url);
    expect(viaNode).toMatchObject({ status: 418, body: '{"teapot":true}' });
    expect(viaNode.headers['spyglass-intercepted']).toBe(captured.id);
    expect(app.seen.length).toBe(hits);

    // The mocked exchanges are captured as mocked items.
    const exchange = await waitForItem(api, deviceId, (i) => i.url === url && i.isMocked && i.id !== captured.id);
    expect(exchange).toMatchObject({ status: 418, isMocked: true, details: { mockedBy: { kind: 'item', id: captured.id } } });
    // What a viewer's new_request carries to flash the intercepted icon on the mocked item.
    expect(exchange.details.response?.headers['spyglass-intercepted']).toBe(captured.id);
    expect(interceptedItemId(exchange)).toBe(captured.id);

    const removed = mocksApplied(client, (m) => m.itemMocks.length === 0);
    await api.put(`/v1/devices/${deviceId}/requests/${captured.id}/mock`, { ...mock, isMocked: false });
    await removed;
    const again = await client.fetch(url);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ server: 'production', url: '/todos/1?expand=owner' });
    expect((await nodeGet(url)).status).toBe(200);
  });

  it('answers with what a dynamic route computes from a query value', async () => {
    const code = `function handler(request) {
      const offset = Number(request.query.offset || 0);
      console.log('serving offset', offset);
      return { status: 200, headers: { 'X-Offset': String(offset) }, body: { items: [offset + 1, offset + 2], method: request.method } };
    }`;
    const applied = mocksApplied(client, (m) => m.routes.some((r) => r.mockData.responseMode === 'dynamic'));
    const created = await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: { mode: 'default', responseMode: 'dynamic', method: 'GET', mockedUrl: `${app.url}/items?offset=*`, statusCode: 200, code },
    });
    expect(created.status).toBe(201);
    const route = created.body as MockedRoute;

    const simulated = await api.post(`/v1/mocked-routes/${route.id}/simulate`, { request: { url: `${app.url}/items?offset=40`, method: 'GET' } });
    expect(simulated.body.response.body).toBe('{"items":[41,42],"method":"GET"}');

    await applied;
    const answer = await client.fetch(`${app.url}/items?offset=10&size=2`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-offset')).toBe('10');
    expect(answer.headers.get(INTERCEPTED_HEADER)).toBe(route.id);
    expect(await answer.json()).toEqual({ items: [11, 12], method: 'GET' });
    const viaNode = await nodeGet(`${app.url}/items?offset=3`);
    expect(JSON.parse(viaNode.body)).toEqual({ items: [4, 5], method: 'GET' });
    expect(app.seen.some((s) => s.url.startsWith('/items'))).toBe(false);
    const item = await waitForItem(api, deviceId, (i) => i.url === `${app.url}/items?offset=10&size=2`);
    expect(item).toMatchObject({ isMocked: true, details: { mockedBy: { kind: 'route', id: route.id } } });

    // The handler sees request bodies: fetch, and node:http written in chunks (chunked encoding).
    const echoCode = 'function handler(r) { return { status: 201, body: { got: JSON.parse(r.body), type: r.headers["content-type"] } }; }';
    const echoApplied = mocksApplied(client, (m) => m.routes.length === 2);
    const echo = (await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true, mockData: { responseMode: 'dynamic', method: 'POST', mockedUrl: `${app.url}/echo`, statusCode: 200, code: echoCode },
    })).body as MockedRoute;
    await echoApplied;
    const fetched = await client.fetch(`${app.url}/echo`, { method: 'POST', body: '{"a":[1,2]}', headers: { 'content-type': 'application/json' } });
    expect(fetched.status).toBe(201);
    expect(await fetched.json()).toEqual({ got: { a: [1, 2] }, type: 'application/json' });
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${app.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.write('{"b":');
      req.end('"two"}');
    });
    expect(chunked.status).toBe(201);
    expect(JSON.parse(chunked.body)).toEqual({ got: { b: 'two' }, type: 'application/json' });
    expect(app.seen.some((s) => s.url === '/echo')).toBe(false);

    const off = mocksApplied(client, (m) => m.routes.length === 0);
    await api.delete(`/v1/mocked-routes/${route.id}`);
    await api.delete(`/v1/mocked-routes/${echo.id}`);
    await off;
  });

  it("delivers a dynamic handler's console output on the device to its route's console, live, not to the requests", async () => {
    const viewer = await connectViewer(server.url, token);
    const code = `function handler(request) {
      console.log('serving', request.query.n);
      console.warn('careful');
      if (request.query.n === 'boom') throw new Error('no such page');
      return { status: 200, body: 'ok ' + request.query.n };
    }`;
    const applied = mocksApplied(client, (m) => m.routes.some((r) => r.mockData.code === code));
    const route = (await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: { mode: 'default', responseMode: 'dynamic', method: 'GET', mockedUrl: `${app.url}/console?n=*`, statusCode: 200, code },
    })).body as MockedRoute;
    await applied;

    const announced = viewer.next('route_console', (m) => m.routeId === route.id && m.consoleLog.length >= 2);
    expect(await (await client.fetch(`${app.url}/console?n=1`)).text()).toBe('ok 1');
    const message = await announced;
    expect(message).toMatchObject({ deviceId, consoleLog: [{ message: 'serving 1', level: 'log' }, { message: 'careful', level: 'warn' }] });

    // A failing handler's error goes to the same console, as the simulator writes it.
    const failed = viewer.next('route_console', (m) => m.routeId === route.id && m.consoleLog.some((e) => e.level === 'error'));
    expect((await client.fetch(`${app.url}/console?n=boom`)).status).toBe(500);
    const afterError = await failed;
    expect(afterError.consoleLog.at(-1)).toMatchObject({ message: expect.stringMatching(/^Error: no such page\b/), level: 'error' });

    // Stored with the route: what the editor's Console panel shows on load.
    const listed = (await api.get(`/v1/mocked-routes?deviceId=${deviceId}`)).body as MockedRoute[];
    expect(listed.find((r) => r.id === route.id)!.mockData.consoleLog.map((e) => e.message.split('\n')[0]))
      .toEqual(['serving 1', 'careful', 'serving boom', 'careful', 'Error: no such page']);

    // Bounded: a handler logging on every request keeps only the route's last entries.
    const many = viewer.next('route_console', (m) => m.routeId === route.id && m.consoleLog.at(-2)?.message === 'serving 79');
    for (let n = 0; n < 80; n++) await client.fetch(`${app.url}/console?n=${n}`);
    const bounded = await many;
    expect(bounded.consoleLog).toHaveLength(MOCK_LIMITS.maxConsoleEntries);

    // Nothing of it among the device's requests.
    await client.flush();
    const page = await api.get(`/v1/requests?deviceId=${deviceId}&limit=500`);
    const logs = (page.body.items as CapturedItem[]).filter((i) => i.type === 'log');
    expect(logs).toEqual([]);

    const off = mocksApplied(client, (m) => !m.routes.some((r) => r.id === route.id));
    await api.delete(`/v1/mocked-routes/${route.id}`);
    await off;
    await viewer.close();
  });

  it('answers https requests to hosts that do not exist, without any network', async () => {
    const applied = mocksApplied(client, (m) => m.routes.some((r) => r.mockData.mockedUrl.startsWith('https://api.example.invalid')));
    const route = (await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: { method: 'GET', mockedUrl: 'https://api.example.invalid/v1/ping', statusCode: 203, headers: [{ key: 'Content-Type', value: 'text/plain' }], body: 'pong' },
    })).body as MockedRoute;
    await applied;
    const viaFetch = await client.fetch('https://api.example.invalid/v1/ping');
    expect([viaFetch.status, await viaFetch.text()]).toEqual([203, 'pong']);
    const viaHttps = await new Promise<{ status: number; body: string; intercepted: unknown }>((resolve, reject) => {
      https.get('https://api.example.invalid/v1/ping', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), intercepted: res.headers['spyglass-intercepted'] }));
      }).on('error', reject);
    });
    expect(viaHttps).toEqual({ status: 203, body: 'pong', intercepted: route.id });
    const off = mocksApplied(client, (m) => m.routes.length === 0);
    await api.delete(`/v1/mocked-routes/${route.id}`);
    await off;
  });

  it('sends mapRemote requests to the other server, keeping path and query', async () => {
    const applied = mocksApplied(client, (m) => m.routes.some((r) => r.mockData.mode === 'mapRemote'));
    const route = (await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: { mode: 'mapRemote', method: 'POST', mockedUrl: `${app.url}/api/v1/*`, mapRemoteUrl: `${other.url}/api/v2`, statusCode: 200 },
    })).body as MockedRoute;
    await applied;

    const answer = await client.fetch(`${app.url}/api/v1/orders?page=2`, { method: 'POST', body: '{"item":42}', headers: { 'content-type': 'application/json' } });
    expect(await answer.json()).toEqual({ server: 'other', url: '/api/v2/orders?page=2' });
    expect(other.seen.at(-1)).toEqual({ method: 'POST', url: '/api/v2/orders?page=2', body: '{"item":42}' });

    const viaNode = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${app.url}/api/v1/users`, { method: 'POST' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(JSON.parse(viaNode)).toEqual({ server: 'other', url: '/api/v2/users' });
    expect(app.seen.some((s) => s.url.startsWith('/api/'))).toBe(false);

    const item = await waitForItem(api, deviceId, (i) => i.url === `${app.url}/api/v1/orders?page=2`);
    expect(item).toMatchObject({ isMocked: true, details: { mockedBy: { kind: 'mapRemote', id: route.id, mappedUrl: `${other.url}/api/v2/orders?page=2` } } });
    // A GET to the same URL is not the route's method: it reaches the real server.
    expect(await (await client.fetch(`${app.url}/api/v1/orders`)).json()).toEqual({ server: 'production', url: '/api/v1/orders' });
  });

  it("waits the route's delay before sending a mapRemote request on, through fetch and node:http", async () => {
    const applied = mocksApplied(client, (m) => m.routes.some((r) => r.mockData.mode === 'mapRemote' && r.mockData.delayMs === 400));
    const route = (await api.post('/v1/mocked-routes', {
      deviceId, isEnabled: true,
      mockData: { mode: 'mapRemote', method: 'GET', mockedUrl: `${app.url}/slow/*`, mapRemoteUrl: `${other.url}/mapped`, statusCode: 200, delayMs: 400 },
    })).body as MockedRoute;
    await applied;
    const timed = async <T>(call: () => Promise<T>) => {
      const started = Date.now();
      const value = await call();
      return { value, ms: Date.now() - started };
    };
    const viaFetch = await timed(async () => (await client.fetch(`${app.url}/slow/a`)).json());
    const viaNode = await timed(async () => JSON.parse((await nodeGet(`${app.url}/slow/b`)).body) as unknown);
    expect(viaFetch.value).toEqual({ server: 'other', url: '/mapped/a' });
    expect(viaNode.value).toEqual({ server: 'other', url: '/mapped/b' });
    expect(viaFetch.ms).toBeGreaterThanOrEqual(390);
    expect(viaNode.ms).toBeGreaterThanOrEqual(390);
    await api.delete(`/v1/mocked-routes/${route.id}`);
  });
});
