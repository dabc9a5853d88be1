import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CapturedItem, Device } from '@spyglass/protocol';
import { createSpyglass, SDK_VERSION, type SpyglassClient, type SpyglassError, type SpyglassOptions } from '@spyglass/sdk';
import { describeApi, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';
import { nodeHttpGet } from './support/node-http-get';

/**
 * A TCP relay between the SDK and the server that a test can cut (the network is gone) or make
 * swallow what the server says (frames arrive and are stored, acks never come back).
 */
class FlakyLink {
  private readonly server = net.createServer((client) => this.relay(client));
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  swallowDownstream = false;
  port = 0;

  constructor(private readonly target: number) {}

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.target, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (!this.swallowDownstream) client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  /** Drops every connection and refuses new ones until `restore`. */
  async cut(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    this.swallowDownstream = false;
    await this.listen();
  }

  async close(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What the app under the SDK calls. */
function startAppBackend(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ rows: 'r'.repeat(100 * 1024) }));
        return;
      }
      if (req.url === '/chunked') {
        // No content-length: the answer travels as chunks, written a moment apart.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"page":1,');
        setTimeout(() => res.end('"rows":[1,2,3]}'), 20);
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-backend': 'test' });
      res.end(JSON.stringify({ ok: true, got: Buffer.concat(chunks).toString() }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

describeApi('JavaScript SDK against the real server', () => {
  let server: TestServer;
  let backend: Awaited<ReturnType<typeof startAppBackend>>;
  let api: ApiClient;
  let apiKey: string;
  const clients: SpyglassClient[] = [];
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer();
    backend = await startAppBackend();
    const account = await signUp(server.url);
    api = account.api;
    apiKey = account.profile.apiKey as string;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await backend?.close();
    await server?.close();
  });

  const connect = async (options: Partial<SpyglassOptions> = {}) => {
    const client = createSpyglass({
      serverUrl: server.url,
      apiKey,
      installId: `sdk-test-${process.pid}-${Date.now()}-${n++}`,
      device: { platform: 'ios', name: 'Test iPhone', model: 'iPhone16,1', bundleId: 'com.example.app', clientAppVersion: '2.1.0', systemName: 'iOS', systemVersion: '18.1' },
      capture: { fetch: false, xhr: false, http: false },
      reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      flushIntervalMs: 5,
      ...options,
    });
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.on('welcome', () => resolve());
      client.on('error', (e) => e.fatal && reject(e));
    });
    return client;
  };

  const items = async (deviceId: string): Promise<CapturedItem[]> => {
    const res = await api.get(`/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=5000`);
    expect(res.status).toBe(200);
    return res.body.items as CapturedItem[];
  };

  it('connects as a device and stores items of all five types, with the network exchange in full', async () => {
    const client = await connect();
    const deviceId = client.deviceId!;
    const devices = (await api.get('/v1/devices')).body as Device[];
    expect(devices.find((d) => d.id === deviceId)).toMatchObject({ online: true, name: 'Test iPhone', platform: 'ios', bundleId: 'com.example.app', sdkVersion: SDK_VERSION });

    const res = await client.fetch(`${backend.url}/orders?ref=42`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sku":"A1"}' });
    expect(await res.json()).toEqual({ ok: true, got: '{"sku":"A1"}' });
    const big = await client.fetch(`${backend.url}/big`);
    expect((await big.text()).length).toBeGreaterThan(100 * 1024);
    const ids = {
      log: client.log('Checkout opened', { level: 'warning', category: 'checkout', stackTrace: new Error('here') }),
      event: client.event('button_tap', { category: 'ui', properties: { id: 'pay' } }),
      screenshot: client.screenshot({ image: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), name: 'Cart' }),
      analytics: client.analyticsEvent('purchase', { value: 12.5, currency: 'EUR' }),
    };
    await expect.poll(async () => (await items(deviceId)).filter((i) => i.type === 'network' && i.status !== null).length).toBe(2);
    await client.flush();

    const stored = await items(deviceId);
    expect(stored.map((i) => i.type).sort()).toEqual(['event', 'firebaseAnalytics', 'log', 'network', 'network', 'screenshot']);
    for (const id of Object.values(ids)) expect(stored.some((i) => i.id === id)).toBe(true);
    const post = stored.find((i) => i.type === 'network' && i.method === 'POST')!;
    expect(post).toMatchObject({ url: `${backend.url}/orders?ref=42`, status: 201 });
    const full = (await api.get(`/v1/requests/${post.id}`)).body as CapturedItem;
    expect(full.type === 'network' && full.details).toMatchObject({
      request: { method: 'POST', body: '{"sku":"A1"}', query: { ref: '42' } },
      response: { statusCode: 201, headers: { 'x-backend': 'test' }, body: '{"ok":true,"got":"{\\"sku\\":\\"A1\\"}"}' },
    });
    const large = stored.find((i) => i.type === 'network' && i.url?.endsWith('/big'))!;
    const largeFull = (await api.get(`/v1/requests/${large.id}`)).body as CapturedItem;
    expect(largeFull.type === 'network' && largeFull.details.response?.body?.length).toBeGreaterThan(100 * 1024);
  });

  it("captures the app's global fetch, undici, axios and node:http requests, which get what they would without the SDK", async () => {
    const axios = (await import('axios')).default;
    const undici = await import('undici');
    const plain = {
      fetch: await (await fetch(`${backend.url}/plain`)).json(),
      undici: await (await undici.fetch(`${backend.url}/plain`, { method: 'PUT', body: 'u' })).json(),
      axios: (await axios.post(`${backend.url}/plain`, { a: 1 })).data,
      http: await nodeHttpGet(`${backend.url}/plain`),
    };
    const client = await connect({ capture: { fetch: true, xhr: false, http: true } });
    try {
      const captured = {
        fetch: await (await fetch(`${backend.url}/via-fetch`)).json(),
        undici: await (await undici.fetch(`${backend.url}/via-undici`, { method: 'PUT', body: 'u' })).json(),
        axios: (await axios.post(`${backend.url}/via-axios`, { a: 1 })).data,
        http: await nodeHttpGet(`${backend.url}/via-http`),
      };
      expect(captured).toEqual(plain);
      await expect.poll(async () => (await items(client.deviceId!)).filter((i) => i.status !== null).length).toBe(4);
      await client.flush();
      const stored = await items(client.deviceId!);
      expect(stored.map((i) => `${i.method} ${new URL(i.url!).pathname} ${i.status}`).sort()).toEqual([
        'GET /via-fetch 200', 'GET /via-http 200', 'POST /via-axios 201', 'PUT /via-undici 200',
      ]);
      const axiosItem = (await api.get(`/v1/requests/${stored.find((i) => i.url!.endsWith('/via-axios'))!.id}`)).body as CapturedItem;
      expect(axiosItem.type === 'network' && axiosItem.details).toMatchObject({ request: { body: '{"a":1}' }, response: { body: '{"ok":true,"got":"{\\"a\\":1}"}' } });
    } finally {
      await client.stop();
    }
    expect(globalThis.fetch).not.toBe(client.fetch);
  });

  it("stores the response body of an undici fetch GET whose chunked JSON the app reads with text()", async () => {
    const undici = await import('undici');
    // Node's own fetch sets the global dispatcher, which the undici package then uses too: Node
    // 20's bundled undici publishes no body chunks on the diagnostics channels.
    await (await fetch(`${backend.url}/plain`)).text();
    const client = await connect({ capture: { fetch: false, xhr: false, http: true } });
    try {
      const text = await (await undici.fetch(`${backend.url}/chunked`)).text();
      expect(JSON.parse(text)).toEqual({ page: 1, rows: [1, 2, 3] });
      await expect.poll(async () => (await items(client.deviceId!)).find((i) => i.url?.endsWith('/chunked'))?.status).toBe(200);
      await client.flush();
      const [listed] = (await items(client.deviceId!)).filter((i) => i.url?.endsWith('/chunked'));
      const full = (await api.get(`/v1/requests/${listed!.id}`)).body as CapturedItem;
      console.log('FULL', JSON.stringify(full), JSON.stringify((await items(client.deviceId!)).filter((i) => i.url?.endsWith('/chunked'))));
      expect(full.type === 'network' && full.details.response).toMatchObject({ statusCode: 200, body: '{"page":1,"rows":[1,2,3]}' });
    } finally {
      await client.stop();
    }
  });

  it('buffers while offline, resends what was not acknowledged, and stores each item exactly once', async () => {
    const link = new FlakyLink(Number(new URL(server.url).port));
    await link.listen();
    try {
      const client = await connect({ serverUrl: link.url });
      const deviceId = client.deviceId!;
      const sent: string[] = [];
      for (let i = 0; i < 20; i++) sent.push(client.log(`before ${i}`)!);
      await client.flush();

      // Frames reach the server and are committed, but their acks are lost with the link.
      link.swallowDownstream = true;
      for (let i = 0; i < 30; i++) sent.push(client.log(`unacknowledged ${i}`)!);
      await expect.poll(async () => (await items(deviceId)).length).toBe(50);
      expect(client.stats().unacknowledged).toBeGreaterThan(0);
      await link.cut();
      // Every item type while offline; the request itself reaches the app's backend, not Spyglass.
      for (let i = 0; i < 5; i++) {
        sent.push(client.event(`offline ${i}`)!, client.log(`offline ${i}`)!, client.analyticsEvent(`offline_${i}`, { i })!);
        sent.push(client.screenshot({ image: new Uint8Array([137, 80, 78, 71, i]), name: `offline ${i}` })!);
      }
      await (await client.fetch(`${backend.url}/offline`)).text();
      expect(client.stats().queued + client.stats().unacknowledged).toBeGreaterThanOrEqual(21);

      await link.restore();
      await client.flush();
      const stored = await items(deviceId);
      const network = stored.filter((i) => i.type === 'network');
      expect(network).toHaveLength(1);
      expect(network[0]).toMatchObject({ url: `${backend.url}/offline`, status: 200 });
      sent.push(network[0]!.id);
      expect(new Set(stored.map((i) => i.type))).toEqual(new Set(['log', 'event', 'screenshot', 'firebaseAnalytics', 'network']));
      expect(stored).toHaveLength(sent.length);
      expect(new Set(stored.map((i) => i.id))).toEqual(new Set(sent));
      expect(new Set(stored.map((i) => i.num)).size).toBe(sent.length);
      // The network item went twice (request, then completed): both versions were acknowledged.
      expect(client.stats()).toMatchObject({ dropped: 0, rejected: 0, queued: 0, unacknowledged: 0 });
      expect(client.stats().acknowledged).toBeGreaterThanOrEqual(sent.length);
    } finally {
      await link.close();
    }
  });

  it('surfaces a wrong API key to the app and stops', async () => {
    const errors: SpyglassError[] = [];
    const client = createSpyglass({
      serverUrl: server.url,
      apiKey: 'sg_live_wrongwrongwrongwrongwrongwrong',
      installId: `bad-key-${process.pid}`,
      capture: { fetch: false, xhr: false, http: false },
      onError: (e) => errors.push(e),
    });
    clients.push(client);
    await expect.poll(() => client.status).toBe('failed');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'bad_api_key', fatal: true, message: 'Invalid API key' });
  });

  it('answers the dashboard commands and obeys feature toggles', async () => {
    let sheets = 0;
    const client = await connect({
      screenshotCapturer: () => ({ image: new Uint8Array([137, 80, 78, 71]), name: 'Remote capture', width: 1, height: 1 }),
      onOpenSheet: () => void sheets++,
    });
    const deviceId = client.deviceId!;

    expect((await api.get(`/v1/devices/${deviceId}/send-ping`)).status).toBe(200);
    expect((await api.get(`/v1/devices/${deviceId}/take-screenshot`)).status).toBe(200);
    expect((await api.get(`/v1/devices/${deviceId}/open-spyglass-sheet`)).status).toBe(200);
    expect(sheets).toBe(1);
    await client.flush();
    const stored = await items(deviceId);
    expect(stored.find((i) => i.type === 'log' && i.details.message === 'Pong')).toBeDefined();
    expect(stored.find((i) => i.type === 'screenshot' && i.details.name === 'Remote capture')).toBeDefined();

    const put = await api.put(`/v1/devices/${deviceId}`, { featureToggles: { logs: false, network: true, prints: true, events: false } });
    expect(put.status).toBe(200);
    await expect.poll(() => client.featureToggles.logs).toBe(false);
    expect(client.log('hidden')).toBeUndefined();
    expect(client.event('hidden')).toBeUndefined();
    expect(client.screenshot({ image: 'iVBORw0KGgo=' })).toBeDefined();
  });

  it('learns a deleted device and stops sending', async () => {
    const errors: SpyglassError[] = [];
    const client = await connect({ onError: (e) => errors.push(e) });
    expect((await api.delete(`/v1/devices/${client.deviceId}`)).status).toBe(200);
    await expect.poll(() => client.status).toBe('failed');
    expect(errors.some((e) => e.code === 'device_deleted' && e.fatal)).toBe(true);
  });
});
