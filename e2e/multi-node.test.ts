import crypto from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage, type CompactItem, type Profile } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient, type SpyglassOptions } from '@spyglass/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gradientPng } from '../apps/simulator/src';
import { BlobStore } from '../apps/server/src/blobs/blob-store';
import { createTestDatabase, type TestDatabase } from '../apps/server/test/support/pg-database';
import { isolatedRedisUrl, probeRedis } from '../apps/server/test/support/redis';
import { startS3Server, type TestS3Server } from '../apps/server/test/support/s3-server';
import { launchBrowser, newContext, recordPageErrors } from './support/browser';
import { haproxyAvailable, startLoadBalancer, type LoadBalancer } from './support/load-balancer';
import { answerOf, UI_TIMEOUT_MS, visible } from './support/page';
import { startServer, type RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

/** Auth attempts per client address per minute, counted by both nodes together (acceptance 4). */
const AUTH_PER_IP = 10;

/** Every call of this test names its own client address (the nodes trust the load balancer's X-Forwarded-For). */
let clientCounter = 2;
const newClientIp = () => `127.0.0.${clientCounter++}`;

const apiHeaders = (token?: string, ip = newClientIp()) => ({
  'content-type': 'application/json', 'x-forwarded-for': ip, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** The app's own backend, which the device calls through the SDK's fetch. */
function startBackend(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ real: true }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

/** A switch is a transparent checkbox under its track: the user clicks the track. */
const switchTrack = (page: Page, name: string) => page.locator('label', { has: page.getByRole('switch', { name, exact: true }) }).first();

const available = haproxyAvailable() && (await probeRedis());
if (!haproxyAvailable()) {
  const message = 'haproxy is missing (apt-get install -y haproxy; .ci/run installs it)';
  if (process.env.CI === 'true') throw new Error(`${message}: the multi-node suite is required under CI=true`);
  console.warn(`\n!! SKIPPING the multi-node suite: ${message}\n`);
}

/**
 * Issue 22: two server nodes on one PostgreSQL database, one Redis and one S3-compatible bucket,
 * behind HAProxy (round robin, no stickiness). Devices and browsers connect only through it; a
 * test-only rule of the load balancer puts each on the node it names (docs/scaling.md).
 */
describe.skipIf(!available)('two nodes behind a load balancer', () => {
  let database: TestDatabase;
  let s3: TestS3Server;
  let nodeA: RunningServer;
  let nodeB: RunningServer;
  let lb: LoadBalancer;
  let browser: Browser;
  let backend: Awaited<ReturnType<typeof startBackend>>;
  let context: BrowserContext | undefined;
  const devices: SpyglassClient[] = [];

  beforeAll(async () => {
    [database, s3, backend, browser] = await Promise.all([createTestDatabase(), startS3Server(), startBackend(), launchBrowser()]);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: await isolatedRedisUrl(13),
      ...s3.env,
      TRUST_PROXY: '127.0.0.1',
      AUTH_RATE_LIMIT_PER_IP: String(AUTH_PER_IP),
    };
    // One after the other: the first creates the schema.
    nodeA = await startServer({ env });
    nodeB = await startServer({ env });
    lb = await startLoadBalancer([{ name: 'a', port: nodeA.port }, { name: 'b', port: nodeB.port }]);
  });
  afterAll(async () => {
    await browser?.close();
    await lb?.stop();
    await nodeA?.stop();
    await nodeB?.stop();
    await s3?.close();
    await backend?.close();
    await database?.drop();
  });
  afterEach(async () => {
    for (const device of devices.splice(0)) await device.stop();
    await context?.close();
    context = undefined;
  });

  async function signUp(): Promise<{ token: string; profile: Profile }> {
    const res = await fetch(`${lb.url}/v1/auth/signup`, {
      method: 'POST', headers: apiHeaders(), body: JSON.stringify({ email: `nodes-${crypto.randomUUID()}@example.com`, password: 'e2e-Password-1!' }),
    });
    expect(res.status).toBe(200);
    const account = (await res.json()) as { token: string; profile: Profile };
    // This story is not about onboarding: the account has been through it.
    const onboarded = await fetch(`${lb.url}/v1/user/complete-onboarding`, {
      method: 'POST', headers: apiHeaders(account.token), body: JSON.stringify({ userId: account.profile.id }),
    });
    expect(onboarded.status).toBe(200);
    return account;
  }

  /** An SDK device whose socket the load balancer gives to `node` (while it is up). */
  async function connectDevice(apiKey: string, node: 'a' | 'b', options: Partial<SpyglassOptions> = {}): Promise<SpyglassClient> {
    const device = createSpyglass({
      serverUrl: `${lb.url}/node-${node}`,
      apiKey,
      installId: `nodes-${crypto.randomUUID()}`,
      device: { platform: 'ios', name: 'Phone on node A', model: 'iPhone16,1', bundleId: 'com.example.nodes', clientAppVersion: '1.0.0', systemName: 'iOS', systemVersion: '18.1' },
      capture: { fetch: false, xhr: false, http: false },
      reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      flushIntervalMs: 5,
      ...options,
    });
    devices.push(device);
    await new Promise<void>((resolve, reject) => {
      device.on('welcome', () => resolve());
      device.on('error', (error) => error.fatal && reject(error));
    });
    return device;
  }

  async function storedItems(token: string, deviceId: string): Promise<CompactItem[]> {
    const res = await fetch(`${lb.url}/v1/requests?${new URLSearchParams({ deviceId, limit: '5000' }).toString()}`, { headers: apiHeaders(token) });
    expect(res.status).toBe(200);
    return RequestsPage.parse(await res.json()).items;
  }

  /** Which node the load balancer gave a websocket of this kind, by what HAProxy logged. */
  const isSocket = (kind: 'device' | 'viewer', path: string) => /\/ws\?/.test(path) && new URLSearchParams(path.split('?')[1]).get('type') === kind;
  const nodesOf = (kind: 'device' | 'viewer') => [...new Set(lb.routed().filter((r) => isSocket(kind, r.path)).map((r) => r.server))];

  it("shows the items of a device on node A live in a dashboard on node B, whose commands and mocks reach the device; screenshots through S3", async () => {
    const account = await signUp();
    const screenshot = gradientPng(120, 80, [20, 90, 200], [240, 180, 40]).toString('base64');
    let sheetsOpened = 0;
    const memory = new Map<string, string>();
    const device = await connectDevice(account.profile.apiKey, 'a', {
      userDefaultsStorage: { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => { memory.set(key, value); } },
      screenshotCapturer: () => ({ image: screenshot, mimeType: 'image/png', name: 'Checkout' }),
      onOpenSheet: () => { sheetsOpened++; },
    });
    const deviceId = device.deviceId!;
    expect(nodesOf('device')).toEqual(['a']);

    // The browser asks the load balancer for node B on every request and on its live connection.
    context = await newContext(browser, lb.url, { extraHTTPHeaders: { 'x-spyglass-node': 'b', 'x-forwarded-for': newClientIp() } });
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    await page.goto('/signin');
    await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(account.token)})`);
    await page.goto(`/devices/${deviceId}`);
    const header = await visible(page.getByRole('button', { name: 'Phone on node A: open the device profile' }));
    await visible(header.getByRole('img', { name: 'Online' }));
    await expect.poll(() => nodesOf('viewer')).toEqual(['b']);

    // Items stored by node A appear live on node B.
    device.log('Crossed from node A');
    await visible(page.getByRole('row', { name: /Crossed from node A/ }));

    // Commands from node B reach the device on node A; its answers come back the same way.
    const ping = await answerOf(page, 'GET', `/devices/${deviceId}/send-ping`, () => page.getByRole('button', { name: 'Send Ping' }).click());
    expect(ping.status()).toBe(200);
    await visible(page.getByText('Ping received by the device'));
    await visible(page.getByRole('row', { name: /Pong/ }));
    const sheet = await answerOf(page, 'GET', `/devices/${deviceId}/open-spyglass-sheet`, () => page.getByRole('button', { name: 'Open Debug Window' }).click());
    expect(sheet.status()).toBe(200);
    expect(sheetsOpened).toBe(1);

    // The screenshot is stored by node A in the bucket, and shown by node B from there.
    const shot = await answerOf(page, 'GET', `/devices/${deviceId}/take-screenshot`, () => page.getByRole('button', { name: 'Take Screenshot' }).click());
    expect(shot.status()).toBe(200);
    await visible(page.getByText('Screenshot taken'));
    await device.flush();
    const stored = (await storedItems(account.token, deviceId)).find((item) => item.type === 'screenshot');
    expect(stored).toBeDefined();
    expect(s3.keys()).toContain(BlobStore.key(account.profile.id, deviceId, stored!.id, 'image'));
    for (const node of [nodeA, nodeB]) expect(fs.existsSync(path.join(node.dataDir, 'blobs')), 'no blob on a node\'s disk').toBe(false);
    const details = await answerOf(page, 'GET', `/requests/${stored!.id}`, () => page.locator('.req-row', { hasText: 'Checkout' }).first().click());
    expect(((await details.json()) as { details: { image: string } }).details.image).toBe(screenshot);
    // Decoded by the browser from what node B read in the bucket.
    const image = await visible(page.getByRole('img', { name: 'Checkout' }));
    await expect.poll(() => image.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(120);
    await screenshotBothSchemes(page, 'multi-node-screenshot');

    // An item mock set on node B answers the device's next identical request on node A.
    const url = `${backend.url}/profile?id=22`;
    expect((await device.fetch(url)).status).toBe(200);
    const row = page.locator('.req-row', { hasText: '/profile?id=22' });
    await (await visible(row)).click();
    const section = await visible(page.getByRole('region', { name: 'Mock' }));
    const mockPath = (r: { url(): string }) => /\/v1\/devices\/[^/]+\/requests\/[^/]+\/mock$/.test(new URL(r.url()).pathname);
    const enabled = page.waitForResponse((r) => r.request().method() === 'PUT' && mockPath(r), { timeout: UI_TIMEOUT_MS });
    await switchTrack(page, 'Enable Mock ⚡').click();
    expect((await enabled).status()).toBe(200);
    const status = page.waitForResponse((r) => r.request().method() === 'PUT' && mockPath(r)
      && (r.request().postDataJSON() as { statusCode?: number }).statusCode === 418, { timeout: UI_TIMEOUT_MS });
    await section.getByLabel('Status', { exact: true }).fill('418');
    expect((await status).status()).toBe(200);
    await expect.poll(async () => (await device.fetch(url)).status, { timeout: UI_TIMEOUT_MS * 2 }).toBe(418);
    await screenshotBothSchemes(page, 'multi-node-mock');

    // A user-defaults edit in the dashboard on node B reaches the app on node A.
    await device.userDefaults.set('apiToken', 'abc123');
    await (await visible(page.getByRole('link', { name: 'User Defaults' }))).click();
    await page.waitForURL(`**/devices/${deviceId}/user-defaults`);
    const valueCell = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Delete standard / apiToken' }) }).getByRole('cell').nth(2);
    await (await visible(valueCell)).dblclick();
    const valueField = page.getByLabel('Value of standard / apiToken');
    await valueField.fill('xyz789');
    const saved = await answerOf(page, 'POST', '/user-defaults', () => valueField.press('Enter'));
    expect(saved.status()).toBe(200);
    expect(await device.userDefaults.get('apiToken')).toBe('xyz789');
    expect(errors).toEqual([]);
  });

  it("relays a user-defaults edit made through node B to the device's app on node A", async () => {
    const account = await signUp();
    const memory = new Map<string, string>();
    const device = await connectDevice(account.profile.apiKey, 'a', {
      userDefaultsStorage: { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => { memory.set(key, value); } },
    });
    await device.userDefaults.set('apiToken', 'abc123');
    // The call the dashboard's User Defaults view makes, on node B.
    const res = await fetch(`${lb.url}/v1/user-defaults`, {
      method: 'POST', headers: { ...apiHeaders(account.token), 'x-spyglass-node': 'b' },
      body: JSON.stringify({ deviceId: device.deviceId, name: 'standard', key: 'apiToken', value: 'xyz789' }),
    });
    expect(res.status).toBe(200);
    expect(await device.userDefaults.get('apiToken')).toBe('xyz789');
    // The load balancer's log holds this file's earlier calls too (the dashboard's edit, also
    // through node B), and HAProxy writes its lines when it likes: every such call went to B.
    const routed = lb.routed().filter((r) => r.path === '/v1/user-defaults');
    expect(routed.length).toBeGreaterThan(0);
    expect(new Set(routed.map((r) => r.server))).toEqual(new Set(['b']));
    expect(nodesOf('device')).toContain('a');
  });

  it('limits a client whose attempts the load balancer spreads over both nodes as one client', async () => {
    const ip = newClientIp();
    const before = lb.routed().length;
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_PER_IP + 3; i++) {
      const res = await fetch(`${lb.url}/v1/auth/signin`, {
        method: 'POST', headers: apiHeaders(undefined, ip), body: JSON.stringify({ email: `nobody-${i}@example.com`, password: 'wrong-Password-1' }),
      });
      statuses.push(res.status);
    }
    const servedBy = new Set(lb.routed().slice(before).filter((r) => r.path === '/v1/auth/signin').map((r) => r.server));
    expect([...servedBy].sort()).toEqual(['a', 'b']);
    // Per node, half of the attempts would pass; together, exactly AUTH_PER_IP do.
    expect(statuses.filter((s) => s !== 429)).toHaveLength(AUTH_PER_IP);
    expect(statuses.slice(AUTH_PER_IP)).toEqual([429, 429, 429]);
  });

  it('moves a device to node B when node A is killed during ingest, and stores every item exactly once', async () => {
    const account = await signUp();
    const device = await connectDevice(account.profile.apiKey, 'a');
    const deviceId = device.deviceId!;
    const sent: string[] = [];
    const log = () => {
      const message = `item ${sent.length}`;
      device.log(message);
      sent.push(message);
    };
    // A dashboard on node A too: it loses its live connection with the node.
    context = await newContext(browser, lb.url, { extraHTTPHeaders: { 'x-spyglass-node': 'a', 'x-forwarded-for': newClientIp() } });
    const page = await context.newPage();
    await page.goto('/signin');
    await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(account.token)})`);
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByRole('heading', { name: 'No Requests yet' }).or(page.getByText('No Requests yet')));

    // Ingest in full flow: node A dies with items acknowledged, in flight and queued.
    for (let i = 0; i < 300; i++) log();
    await expect.poll(() => device.stats().acknowledged).toBeGreaterThan(50);
    const routedBefore = lb.routed().length;
    for (let i = 0; i < 300; i++) log();
    const atKill = device.stats();
    nodeA.child.process.kill('SIGKILL');
    for (let i = 0; i < 300; i++) log();
    await nodeA.child.exited();

    // The device reconnects through the load balancer, which now has only node B, and resends.
    await device.flush();
    expect(lb.routed().slice(routedBefore).filter((r) => isSocket('device', r.path)).map((r) => r.server)).toContain('b');
    // Killed with items acknowledged and items not: those were resent to node B.
    expect(atKill.acknowledged).toBeGreaterThan(0);
    expect(atKill.acknowledged).toBeLessThan(600);
    expect(device.stats()).toMatchObject({ acknowledged: sent.length, unacknowledged: 0, dropped: 0, rejected: 0 });
    const messages = (await storedItems(account.token, deviceId))
      .flatMap((item) => (item.type === 'log' ? [(item.details as { message: string }).message] : []))
      .filter((message) => message.startsWith('item '));
    expect(messages).toHaveLength(sent.length);
    expect(new Set(messages)).toEqual(new Set(sent));
    // The dashboard reconnected through the load balancer to node B and caught up.
    await visible(page.getByText(`Requests: ${sent.length} (Total: ${sent.length})`));
    await visible(page.getByRole('row').filter({ hasText: sent[sent.length - 1]! }));
  });
});
