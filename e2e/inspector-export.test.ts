import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import {
  CSV_EXPORT_COLUMNS, HAR_CREATOR, type CapturedItem, type HarLog, type NetworkItem,
} from '@spyglass/protocol';
import * as harValidator from 'har-validator';
import Papa from 'papaparse';
import type { Download, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { signUpByApi } from './support/accounts';
import { fullItem, storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { clipboardText, visible } from './support/page';
import type { RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

const run = promisify(execFile);

interface Received { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }

/** The app's API for the test: answers JSON and keeps every request exactly as it arrived. */
async function startRecordingServer(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ ok: true, path: req.url, n: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the server holds for the device, in full (bodies included), newest first as the list shows it. */
async function capturedItems(server: RunningServer, token: string, deviceId: string): Promise<CapturedItem[]> {
  return Promise.all((await storedItems(server, token, deviceId)).map((item) => fullItem(server, token, item.id)));
}

async function downloaded(download: Download): Promise<string> {
  const file = await download.path();
  return fs.readFileSync(file, 'utf8');
}

/** Opens the export modal (from the stats bar unless `open` says otherwise), picks a format and downloads the file. */
async function exportAs(page: Page, format: 'JSON' | 'CSV' | 'HAR', options: { screenshot?: string; open?: () => Promise<void> } = {}): Promise<{ name: string; text: string }> {
  if (options.open) await options.open();
  else await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = await visible(page.getByRole('dialog', { name: 'Export' }));
  await dialog.getByRole('radio', { name: format }).click();
  await visible(dialog.getByLabel('Preview'));
  if (options.screenshot) await screenshotBothSchemes(page, options.screenshot);
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export', exact: true }).click()]);
  await dialog.waitFor({ state: 'detached' });
  return { name: download.suggestedFilename(), text: await downloaded(download) };
}

const lowerKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** Issue 5, acceptance 3: HAR valid and round-tripping, CSV parsing, Copy as cURL replayed by real curl. */
describe('inspector export and cURL', () => {
  const env = useE2eEnvironment();
  let app: Awaited<ReturnType<typeof startRecordingServer>> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  // After the hook above: hooks run last-registered first, so the device stops before its app's server closes.
  const fixtures = useStoryFixtures(env);

  it('exports valid HAR and CSV of the captured requests, and a cURL command that repeats a request exactly', async () => {
    const account = await signUpByApi(env.server);
    app = await startRecordingServer();
    const { simulator, device, deviceId } = await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['ios'], seed: 5 });

    // The simulated app's own traffic, plus requests to the recording server with awkward values.
    for (const kind of ['network', 'log', 'network', 'event', 'network'] as const) await device.act(kind);
    const orderBody = JSON.stringify({ item: 'Käse 🧀', note: "it's \"quoted\" $HOME `date` \\ back", qty: 2, lines: 'a\nb' });
    const orderHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-trace': "a'b\"c $(id) `id` \\ !x", authorization: 'Bearer t0k3n' };
    await (await device.client.fetch(`${app.url}/api/orders?src=e2e&q=caf%C3%A9`, { method: 'POST', headers: orderHeaders, body: orderBody })).arrayBuffer();
    await (await device.client.fetch(`${app.url}/api/profile`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'name=Zoë & co' })).arrayBuffer();
    await (await device.client.fetch(`${app.url}/api/search?term=a%20b&page=2`, { headers: { accept: 'application/json' } })).arrayBuffer();
    await simulator.flush();
    const captured = await capturedItems(env.server, account.token, deviceId);
    const network = captured.filter((item): item is NetworkItem => item.type === 'network');
    expect(network.length).toBe(6);

    const { page, errors } = await fixtures.signedInUser({ account, context: { acceptDownloads: true, permissions: ['clipboard-read', 'clipboard-write'] } });
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByText(`Requests: ${captured.length} (Total: ${captured.length})`));

    // The bar chart: every captured item counted (they all fall in one or two 5-minute bins).
    await page.getByRole('button', { name: 'Show bar chart' }).click();
    const chart = await visible(page.getByRole('region', { name: 'Requests over time' }));
    await visible(chart.getByRole('button', { name: '5 min', pressed: true }));
    const bars = chart.locator('.bar-chart-bar:not([aria-disabled])');
    const counted = await bars.evaluateAll((els) => els.map((el) => Number(/^(\d+)/.exec(el.getAttribute('aria-label') ?? '')?.[1] ?? 0)));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(captured.length);
    await bars.last().hover();
    await visible(chart.getByRole('tooltip'));
    await screenshotBothSchemes(page, 'inspector-bar-chart');

    // Export takes the selection when there is one: select everything.
    await page.getByRole('row').filter({ hasText: '/api/orders' }).first().click();
    await page.keyboard.press('ControlOrMeta+a');
    await visible(page.getByText(`Selected ${captured.length} of ${captured.length} requests (Total: ${captured.length})`));

    // HAR 1.2, valid by the HAR schema, with exactly the captured network requests. The bodies come
    // a batch at a time (POST /v1/requests/lookup), not one GET per item.
    const itemCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/v1/requests/')) itemCalls.push(`${request.method()} ${path.replace(/[^/]+$/, (last) => (last === 'lookup' ? last : ':id'))}`);
    });
    const harFile = await exportAs(page, 'HAR');
    expect(itemCalls.length).toBeGreaterThan(0);
    expect(new Set(itemCalls)).toEqual(new Set(['POST /v1/requests/lookup']));
    expect(harFile.name).toBe('spyglass-requests.har');
    const har = JSON.parse(harFile.text) as HarLog;
    await expect(harValidator.har(har)).resolves.toBeTruthy();
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual(HAR_CREATOR);
    expect(har.log.entries.map((e) => e._id).sort()).toEqual(network.map((item) => item.id).sort());
    for (const item of network) {
      const entry = har.log.entries.find((e) => e._id === item.id)!;
      const { request, response } = item.details;
      expect(entry.request.method).toBe(request.method);
      expect(decodeURI(entry.request.url)).toBe(decodeURI(request.url));
      expect(Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value]))).toEqual(request.headers);
      expect(entry.request.postData?.text ?? null).toBe(request.body ?? null);
      expect(entry.response.status).toBe(response?.statusCode ?? 0);
      expect(Object.fromEntries(entry.response.headers.map((h) => [h.name, h.value]))).toEqual(response?.headers ?? {});
      expect(entry.response.content.text ?? null).toBe(response?.body ?? null);
      expect(entry.startedDateTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const order = har.log.entries.find((e) => e.request.url.includes('/api/orders'))!;
    expect(order.request.postData).toMatchObject({ mimeType: 'application/json; charset=utf-8', text: orderBody });
    expect(order.request.queryString).toEqual([{ name: 'src', value: 'e2e' }, { name: 'q', value: 'café' }]);
    expect(order.response.content.mimeType).toBe('application/json');

    // CSV: method, url, status, timestamp of every selected item, parsed back by a CSV library.
    // (The screenshot shows the csv preview: the indented HAR preview scrolls, and screenshots grow to show scrolled panels whole.)
    const csvFile = await exportAs(page, 'CSV', { screenshot: 'inspector-export-modal' });
    expect(csvFile.name).toBe('spyglass-requests.csv');
    const parsed = Papa.parse<Record<string, string>>(csvFile.text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_EXPORT_COLUMNS]);
    expect(parsed.data.length).toBe(captured.length);
    for (const item of network) {
      expect(parsed.data).toContainEqual({
        method: item.details.request.method, url: item.details.request.url, status: String(item.details.response?.statusCode ?? ''), timestamp: item.createdAt,
      });
    }

    // A row's menu exports that request alone; JSON holds it in full, bodies included.
    const orderItem = network.find((item) => item.details.request.url.includes('/api/orders'))!;
    const orderRow = page.getByRole('row').filter({ hasText: '/api/orders' }).first();
    await orderRow.click();
    await visible(page.getByText(`Selected 1 of ${captured.length} requests (Total: ${captured.length})`));
    const jsonFile = await exportAs(page, 'JSON', {
      open: async () => {
        await orderRow.click({ button: 'right' });
        await page.getByRole('menuitem', { name: 'Export', exact: true }).click();
      },
    });
    expect(jsonFile.name).toBe('spyglass-requests.json');
    expect(JSON.parse(jsonFile.text)).toEqual([orderItem]);

    // Copy as CURL on the POST, then real curl sends it to the recording server again.
    await orderRow.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy as CURL' }).click();
    await visible(page.getByText('Copied to clipboard'));
    const command = await clipboardText(page);
    expect(command.startsWith('curl ')).toBe(true);
    app.received.length = 0;
    await run('sh', ['-c', command], { timeout: 30_000 });
    expect(app.received.length).toBe(1);
    const replay = app.received[0]!;
    expect(replay.method).toBe('POST');
    expect(replay.url).toBe(new URL(orderItem.details.request.url).pathname + new URL(orderItem.details.request.url).search);
    for (const [name, value] of Object.entries(lowerKeys(orderItem.details.request.headers))) {
      if (name === 'content-length') continue;
      expect(replay.headers[name], `header ${name}`).toBe(value);
    }
    expect(replay.headers['x-trace']).toBe(orderHeaders['x-trace']);
    expect(replay.body.toString('utf8')).toBe(orderBody);

    // A GET is repeated without a body.
    const searchRow = page.getByRole('row').filter({ hasText: '/api/search' }).first();
    await searchRow.click();
    await searchRow.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy as CURL' }).click();
    app.received.length = 0;
    await expect.poll(() => clipboardText(page)).toContain('/api/search');
    await run('sh', ['-c', await clipboardText(page)], { timeout: 30_000 });
    expect(app.received.map((r) => [r.method, r.url, r.body.length])).toEqual([['GET', '/api/search?term=a%20b&page=2', 0]]);

    expect(errors).toEqual([]);
  });
});
