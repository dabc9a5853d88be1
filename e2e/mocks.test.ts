import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, INTERCEPTED_HEADER, RequestsPage, type CompactItem } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpByApi, type TestAccount } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, UI_TIMEOUT_MS, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** The app's own backend, which the device calls: answers JSON naming itself, and remembers the paths it got. */
interface Backend { url: string; paths: string[]; close(): Promise<void> }

function startBackend(name: string): Promise<Backend> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-backend': name });
      res.end(JSON.stringify({ from: name, path: req.url }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

const apiHeaders = (token: string) => ({ authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD });

/** A device's stored network items, newest first (GET /v1/requests as the signed-in user). */
async function networkItems(serverUrl: string, token: string, deviceId: string): Promise<CompactItem[]> {
  const res = await fetch(`${serverUrl}/v1/requests?${new URLSearchParams({ deviceId, limit: '500' }).toString()}`, { headers: apiHeaders(token) });
  if (res.status !== 200) throw new Error(`GET /v1/requests answered ${res.status}`);
  return RequestsPage.parse(await res.json()).items.filter((item) => item.type === 'network');
}

/** What the app got for one request made through the SDK's fetch. */
async function call(client: SpyglassClient, url: string) {
  const res = await client.fetch(url);
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** Replaces a CodeMirror editor's text the way a user does: focus, select all, type (one insertion). */
async function typeInEditor(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press('ControlOrMeta+A');
  await editor.page().keyboard.insertText(text);
}

/** An editor's text, line by line as CodeMirror renders it (the documents here are short, so all lines are rendered). */
interface EditorElement { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> }
const editorText = (editor: Locator) => editor.evaluate((el: EditorElement) => Array.from(el.querySelectorAll('.cm-line'), (line) => line.textContent ?? '').join('\n'));

interface ScrolledElement { parentElement: ScrolledElement | null; scrollTop: number }

/** A switch is a transparent checkbox under its track: the user clicks the track. */
const switchTrack = (page: Page, name: string) => page.locator('label', { has: page.getByRole('switch', { name, exact: true }) }).first();

describe('mocking', () => {
  const env = useE2eEnvironment();
  let backend: Backend;
  let other: Backend;
  let account: TestAccount;
  let client: SpyglassClient | undefined;
  const fixtures = useStoryFixtures(env);

  beforeAll(async () => {
    [backend, other] = await Promise.all([startBackend('real'), startBackend('other')]);
  });
  afterAll(async () => {
    await backend?.close();
    await other?.close();
  });
  // After useStoryFixtures: hooks run last-registered first, so the device stops before its page closes.
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  async function connectDevice(): Promise<SpyglassClient> {
    const device = createSpyglass({
      serverUrl: env.server.url,
      apiKey: account.profile.apiKey,
      installId: `e2e-mocks-${process.pid}-${Date.now()}`,
      device: { platform: 'ios', name: 'Mock iPhone', model: 'iPhone16,1', bundleId: 'com.example.todos', clientAppVersion: '3.0.0', systemName: 'iOS', systemVersion: '18.1' },
      capture: { fetch: false, xhr: false, http: false },
      reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
      flushIntervalMs: 5,
    });
    await new Promise<void>((resolve, reject) => {
      device.on('welcome', () => resolve());
      device.on('error', (error) => error.fatal && reject(error));
    });
    return device;
  }

  async function openPage(path: string): Promise<{ page: Page; errors: string[] }> {
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto(path);
    return { page, errors };
  }

  /** Issue 7, acceptance 1: an item mock set in the details panel answers the device's next identical request. */
  it('mocks a captured request from its details: the app gets 418 with the header and body, then the real answer again', async () => {
    account = await signUpByApi(env.server);
    client = await connectDevice();
    const deviceId = client.deviceId!;
    const url = `${backend.url}/profile?id=7`;
    expect((await call(client, url)).status).toBe(200);
    await client.flush();

    const { page, errors } = await openPage(`/devices/${deviceId}`);
    const row = page.locator('.req-row', { hasText: '/profile?id=7' });
    await (await visible(row)).click();
    const section = await visible(page.getByRole('region', { name: 'Mock' }));
    const [captured] = await networkItems(env.server.url, account.token, deviceId);
    const itemId = captured!.id;

    const mockPath = `/v1/devices/${deviceId}/requests/${itemId}/mock`;
    /** The answer to the item mock update whose body passes `check` (updates are sent one after the other). */
    const mockUpdate = (check: (body: Record<string, unknown>) => boolean) => page.waitForResponse((r) =>
      r.request().method() === 'PUT' && new URL(r.url()).pathname === mockPath && check(r.request().postDataJSON() as Record<string, unknown>), { timeout: UI_TIMEOUT_MS });

    const enabled = mockUpdate((body) => body.isMocked === true);
    await switchTrack(page, 'Enable Mock ⚡').click();
    expect((await enabled).status()).toBe(200);
    expect((await enabled).request().postDataJSON()).toMatchObject({ isMocked: true, headers: { [INTERCEPTED_HEADER]: itemId } });

    const status = mockUpdate((body) => body.statusCode === 418);
    await section.getByLabel('Status', { exact: true }).fill('418');
    await status;
    await section.getByRole('button', { name: 'Add header' }).click();
    await expect.poll(() => section.getByLabel('Header 1 name').inputValue()).toBe('Key');
    const header = mockUpdate((body) => (body.headers as Record<string, string>)['X-Mocked-By'] === 'spyglass-e2e');
    await section.getByLabel('Header 1 name').fill('X-Mocked-By');
    await section.getByLabel('Header 1 value').fill('spyglass-e2e');
    await section.getByLabel('Header 1 name').focus();
    await header;
    const bodyEditor = section.locator('.cm-content[aria-label="Mock body"]');
    await visible(bodyEditor);
    const last = mockUpdate((body) => body.body === '{"mocked":true,"items":[1,2]}');
    await typeInEditor(bodyEditor, '{"mocked":true,"items":[1,2]}');
    expect((await last).request().postDataJSON()).toMatchObject({
      isMocked: true, statusCode: 418,
      headers: { 'X-Mocked-By': 'spyglass-e2e', [INTERCEPTED_HEADER]: itemId },
      mockedUrl: url.replace('?', '\\?'),
    });
    // The intercepted header cannot be edited or deleted.
    const lockedRow = section.locator('.header-row', { has: page.locator(`input[value="${INTERCEPTED_HEADER}"]`) });
    expect(await lockedRow.locator('input').first().getAttribute('readonly')).not.toBeNull();
    expect(await lockedRow.getByRole('button').count()).toBe(0);

    // The device applies the mock once the server has sent it the new set: ask until it answers with it.
    const flashed = page.waitForSelector('.intercepted-icon[data-flashing]', { state: 'attached', timeout: UI_TIMEOUT_MS * 2 });
    await expect.poll(async () => (await call(client!, url)).status, { timeout: UI_TIMEOUT_MS * 2 }).toBe(418);
    const mocked = await call(client, url);
    expect(mocked.headers['x-mocked-by']).toBe('spyglass-e2e');
    expect(mocked.headers[INTERCEPTED_HEADER.toLowerCase()]).toBe(itemId);
    expect(JSON.parse(mocked.body)).toEqual({ mocked: true, items: [1, 2] });
    await flashed;
    await page.getByRole('button', { name: 'Expand' }).click();
    await section.evaluate((el: ScrolledElement) => {
      // The section opens the response panel: show the panel from its top.
      for (let box = el.parentElement; box; box = box.parentElement) box.scrollTop = 0;
    });
    await screenshotBothSchemes(page, 'mocks-item-section');

    // Reopened, the details show the mock as it is.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('region', { name: 'Mock' }).count()).toBe(0);
    await page.locator('.req-row').filter({ has: page.locator('.req-td-id', { hasText: /^1$/ }) }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Mock' }).getByLabel('Status', { exact: true }).inputValue()).toBe('418');
    expect(await page.getByRole('switch', { name: 'Enable Mock ⚡' }).isChecked()).toBe(true);

    // Off again: the real server answers.
    const off = mockUpdate((body) => body.isMocked === false);
    await switchTrack(page, 'Enable Mock ⚡').click();
    await off;
    await expect.poll(async () => (await call(client!, url)).status, { timeout: UI_TIMEOUT_MS * 2 }).toBe(200);
    expect(JSON.parse((await call(client, url)).body)).toEqual({ from: 'real', path: '/profile?id=7' });
    expect(errors).toEqual([]);
  });

  /** Issue 7, acceptance 2: a dynamic route simulated in the page answers the device; a mapRemote route sends it elsewhere. */
  it('creates a dynamic route, simulates it, and the device gets the computed answer; a mapRemote route reaches the other server', async () => {
    account = await signUpByApi(env.server);
    client = await connectDevice();
    const deviceId = client.deviceId!;
    const { page, errors } = await openPage(`/devices/${deviceId}/mock-apis`);
    await visible(page.getByText('No mocked routes'));
    await visible(page.getByText('Select or add a mocked route'));
    await visible(page.getByText('Only connected devices receive mocked routes.'));

    // A new route is added at the top, disabled; saving checks what it must.
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await visible(page.getByText('Mocked URL is required'));
    await page.getByLabel('Mocked URL').fill(`${backend.url}/todos`);
    await page.getByRole('radio', { name: 'Dynamic' }).click();
    const code = page.locator('.cm-content[aria-label="Code"]');
    await visible(code);
    expect(await editorText(code)).toContain('function handler(request)');
    await page.locator('summary', { hasText: 'Examples' }).click();
    await page.locator('.mock-example', { hasText: 'Body chosen by a query value' }).getByRole('button', { name: 'Use' }).click();
    expect(await editorText(code)).toContain('request.query.offset');
    const created = await answerOf(page, 'POST', '/mocked-routes', () => page.getByRole('button', { name: 'Create' }).click());
    expect(created.status()).toBe(201);
    await visible(page.getByText('Mocked route created'));
    const routeId = (await created.json() as { id: string }).id;

    // The simulator runs the handler on a request the user writes.
    await switchTrack(page, 'Simulator').click();
    const definition = page.locator('.cm-content[aria-label="Simulated request"]');
    await typeInEditor(definition, JSON.stringify({ url: `${backend.url}/todos?offset=1`, method: 'GET', headers: {}, body: null }, null, 2));
    await answerOf(page, 'POST', `/mocked-routes/${routeId}/simulate`, () => page.getByRole('button', { name: 'Simulate' }).click());
    const output = page.getByRole('log', { name: 'Simulator output' });
    await visible(output.getByText('URL matches pattern'));
    await visible(output.getByText('"offset": 1'));
    await visible(output.getByText('> offset 1'));
    await screenshotBothSchemes(page, 'mocks-simulator');

    // A request the pattern does not take is shown with both.
    await typeInEditor(definition, JSON.stringify({ url: `${other.url}/todos`, method: 'GET' }));
    await page.getByRole('button', { name: 'Simulate' }).click();
    await visible(output.getByText('Request URL does not match pattern'));
    await visible(output.getByText(`Pattern: ${backend.url}/todos`));

    // Enabled, it reaches the device, which computes the answer from the query.
    await answerOf(page, 'PUT', `/mocked-routes/${routeId}`, () => switchTrack(page, 'Enabled').click());
    await expect.poll(async () => (await call(client!, `${backend.url}/todos?offset=2`)).body, { timeout: UI_TIMEOUT_MS * 2 }).toContain('"offset":2');
    const computed = JSON.parse((await call(client, `${backend.url}/todos?offset=0`)).body) as { offset: number; items: unknown[]; total: number };
    expect(computed).toMatchObject({ offset: 0, total: 3 });
    expect(computed.items).toHaveLength(2);
    // What the handler logged on the device is in the route's Console, live (spec 002), not in Requests.
    const routeConsole = page.getByRole('region', { name: 'Console', exact: true });
    await visible(routeConsole.getByText('offset 0', { exact: true }).first());
    await visible(routeConsole.getByText('offset 2', { exact: true }).first());
    await screenshotBothSchemes(page, 'mocks-route-console');

    // mapRemote: requests to /legacy/* of the real backend go to the other server.
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('radio', { name: 'Map Remote' }).click();
    await page.getByLabel('Mocked URL').fill(`${backend.url}/legacy/*`);
    await page.getByLabel('Map remote URL').fill(`${other.url}/v2/`);
    const mapped = await answerOf(page, 'POST', '/mocked-routes', () => page.getByRole('button', { name: 'Create' }).click());
    const mappedId = (await mapped.json() as { id: string }).id;
    await answerOf(page, 'PUT', `/mocked-routes/${mappedId}`, () => switchTrack(page, 'Enabled').click());
    await expect.poll(async () => (await call(client!, `${backend.url}/legacy/orders/9?x=1`)).headers['x-backend'], { timeout: UI_TIMEOUT_MS * 2 }).toBe('other');
    expect(other.paths).toContain('/v2/orders/9?x=1');

    // Both routes in the list, newest first; the editor and list in both themes.
    await expect.poll(() => page.locator('.route-row').count()).toBe(2);
    expect(await page.locator('.route-row').first().innerText()).toContain('/legacy/*');
    await page.locator('.route-row', { hasText: '/todos' }).click();
    await screenshotBothSchemes(page, 'mocks-routes-view');

    // A script that does not run is not saved: its error shows under the code editor.
    await typeInEditor(code, 'function handler(request) { return {');
    const refused = await answerOf(page, 'PUT', `/mocked-routes/${routeId}`, () => page.getByRole('button', { name: 'Save' }).click());
    expect(refused.status()).toBe(400);
    expect((await (await visible(page.locator('.script-error'))).innerText()).trim()).not.toBe('');
    await page.locator('summary', { hasText: 'Examples' }).click();
    await page.locator('.mock-example', { hasText: 'Body chosen by a query value' }).getByRole('button', { name: 'Use' }).click();
    // Back to the saved script: nothing to save, and the error is gone with the code it belonged to.
    await expect.poll(() => page.locator('.script-error').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    // Live updates: no Save button, a description is saved after the pause.
    await answerOf(page, 'PUT', `/mocked-routes/${routeId}`, () => switchTrack(page, 'Live updates').click());
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    const described = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/v1/mocked-routes/${routeId}`
      && (r.request().postDataJSON() as { description?: string }).description === 'Pages of todos', { timeout: UI_TIMEOUT_MS });
    await page.getByLabel('Description').fill('Pages of todos');
    expect((await described).status()).toBe(200);
    await visible(page.getByText('All changes saved'));
    // Tags: Enter confirms, Escape cancels, a blank one is ignored.
    const tagged = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/v1/mocked-routes/${routeId}`
      && JSON.stringify((r.request().postDataJSON() as { tags?: string[] }).tags) === '["paging"]', { timeout: UI_TIMEOUT_MS });
    const tagInput = page.getByLabel('New tag');
    await tagInput.fill('paging');
    await tagInput.press('Enter');
    await tagInput.fill('   ');
    await tagInput.press('Enter');
    await tagInput.fill('draft');
    await tagInput.press('Escape');
    expect(await tagInput.inputValue()).toBe('');
    await tagged;
    expect(await page.locator('.tags-input .tag-chip').allInnerTexts()).toEqual(['paging']);

    // Search over the route's fields; the divider keeps to 20-70 % of the view.
    await page.getByLabel('Search mocked routes').fill('map');
    await expect.poll(() => page.locator('.route-row').count()).toBe(1);
    await page.getByLabel('Search mocked routes').fill('');
    const divider = page.getByRole('separator', { name: 'Resize the list' });
    const layoutWidth = await page.locator('.mock-routes').evaluate((el: { clientWidth: number }) => el.clientWidth);
    await divider.focus();
    await page.keyboard.press('End');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(Math.round(layoutWidth * 0.7));
    await page.keyboard.press('Home');
    expect(Number(await divider.getAttribute('aria-valuenow'))).toBe(Math.round(layoutWidth * 0.2));

    // Delete asks first.
    await page.locator('.route-row', { hasText: '/legacy/*' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = await visible(page.getByRole('dialog', { name: 'Delete mocked route' }));
    await visible(confirm.getByText('Are you sure you want to delete this mocked route? This action cannot be undone.'));
    await answerOf(page, 'DELETE', `/mocked-routes/${mappedId}`, () => confirm.getByRole('button', { name: 'Delete' }).click());
    await visible(page.getByText('Mocked route deleted'));
    await expect.poll(() => page.locator('.route-row').count()).toBe(1);
    // The one failed call is the refused script.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });

  /** Creates a mocked route for the device through the API, as the signed-in owner. */
  async function createRoute(deviceId: string, mockedUrl: string, statusCode: number): Promise<string> {
    const res = await fetch(`${env.server.url}/v1/mocked-routes`, {
      method: 'POST',
      headers: { ...apiHeaders(account.token), 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId, mockData: { mockedUrl, statusCode }, isEnabled: true }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/mocked-routes answered ${res.status}`);
    return (await res.json() as { id: string }).id;
  }

  interface Box { getBoundingClientRect(): { width: number }; scrollWidth: number; clientWidth: number }
  const widthOf = (locator: Locator) => locator.evaluate((el: Box) => el.getBoundingClientRect().width);
  const isWhole = (locator: Locator) => locator.evaluate((el: Box) => el.scrollWidth <= el.clientWidth);

  /**
   * At 390 px the two panes (40 % for the list) left the search box 20 px and cut every URL after
   * 'http://1': on a phone the list takes the whole width, an opened route's editor replaces it with
   * a way back, and a desktop keeps the two panes.
   */
  it('shows one pane at a time on a phone: the list at full width, an opened route under a way back', async () => {
    account = await signUpByApi(env.server);
    client = await connectDevice();
    const deviceId = client.deviceId!;
    const todos = `${backend.url}/api/todos`;
    await createRoute(deviceId, `${backend.url}/api/users/*`, 200);
    await createRoute(deviceId, todos, 503);

    const { page, errors } = await fixtures.signedInUser({ account, context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
    await page.goto(`/devices/${deviceId}/mock-apis`);
    const row = page.locator('.route-row', { hasText: '/api/todos' });
    await visible(row);
    // The list's pane is the page's width; no editor beside it, no divider to drag.
    expect(await widthOf(page.locator('.mock-routes-list'))).toBeGreaterThanOrEqual(380);
    expect(await page.getByText('Select or add a mocked route').count()).toBe(0);
    expect(await page.getByRole('separator', { name: 'Resize the list' }).count()).toBe(0);
    expect(await widthOf(page.getByLabel('Search mocked routes'))).toBeGreaterThanOrEqual(150);
    const url = row.locator('.route-row-url');
    expect(await url.innerText()).toBe(todos);
    expect(await isWhole(url)).toBe(true);
    await page.getByLabel('Search mocked routes').fill('todos');
    await expect.poll(() => page.locator('.route-row').count()).toBe(1);
    await page.getByLabel('Search mocked routes').fill('');
    await expect.poll(() => page.locator('.route-row').count()).toBe(2);
    await screenshotBothSchemes(page, 'mocks-phone-list');

    // Opened, the route's editor takes the whole width, nothing runs past the page's right edge.
    await row.click();
    const back = await visible(page.getByRole('button', { name: 'Back to mocked routes' }));
    expect(await page.getByLabel('Mocked URL').inputValue()).toBe(todos);
    expect(await page.locator('.mock-routes-list').isVisible()).toBe(false);
    expect(await widthOf(page.getByLabel('Mocked URL'))).toBeGreaterThanOrEqual(300);
    expect(await isWhole(page.locator('.route-editor-url'))).toBe(true);
    for (const name of ['Publish', 'Delete']) {
      const box = (await (await visible(page.getByRole('button', { name, exact: true }))).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshotBothSchemes(page, 'mocks-phone-editor');

    // Back: the list again, the route it came from still marked; Add opens a new route's editor.
    await back.click();
    await visible(page.getByLabel('Search mocked routes'));
    expect(await row.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Create' }));
    await page.getByRole('button', { name: 'Back to mocked routes' }).click();
    await visible(page.locator('.route-row', { hasText: 'New mocked route' }));

    // A desktop keeps the list and the editor side by side.
    await page.setViewportSize({ width: 1280, height: 800 });
    await visible(page.getByText('Select or add a mocked route').or(page.getByLabel('Mocked URL')));
    await visible(page.getByRole('separator', { name: 'Resize the list' }));
    expect(await page.getByRole('button', { name: 'Back to mocked routes' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  /**
   * Issue 7, acceptance 5: the folder watcher on a real directory handle. The native picker cannot
   * be driven by a test, so `showDirectoryPicker` answers the origin-private file system's real
   * handle (navigator.storage.getDirectory()); listing, reading and watching are the app's own.
   */
  it('lists the js, json, txt and html files of a connected folder and keeps the body in step with the watched file', async () => {
    account = await signUpByApi(env.server);
    client = await connectDevice();
    const { context, page, errors } = await fixtures.signedInUser({ account });
    await context.addInitScript('window.showDirectoryPicker = () => navigator.storage.getDirectory();');
    await page.goto(`/devices/${client.deviceId!}/mock-apis`);
    await page.evaluate(`(async () => {
      const root = await navigator.storage.getDirectory();
      const files = { 'todos.json': '[{"id":1}]', 'handler.js': 'function handler() {}', 'notes.txt': 'n', 'page.html': '<p>p</p>', 'logo.png': 'x', 'style.css': 'a{}' };
      for (const [name, text] of Object.entries(files)) {
        const writable = await (await root.getFileHandle(name, { create: true })).createWritable();
        await writable.write(text);
        await writable.close();
      }
    })()`);

    await (await visible(page.getByRole('button', { name: 'Add', exact: true }))).click();
    await page.getByRole('button', { name: 'Connect folder' }).click();
    const files = page.getByRole('list', { name: 'Files' });
    await visible(files);
    expect(await files.getByRole('listitem').allInnerTexts()).toEqual(['handler.js', 'notes.txt', 'page.html', 'todos.json']);

    await files.getByRole('button', { name: /todos\.json/ }).click();
    const body = page.locator('.cm-content[aria-label="Body"]');
    await expect.poll(() => editorText(body), { timeout: UI_TIMEOUT_MS }).toBe('[{"id":1}]');
    await page.evaluate(`(async () => {
      const root = await navigator.storage.getDirectory();
      const writable = await (await root.getFileHandle('todos.json')).createWritable();
      await writable.write('[{"id":1},{"id":2}]');
      await writable.close();
    })()`);
    await expect.poll(() => editorText(body), { timeout: UI_TIMEOUT_MS }).toBe('[{"id":1},{"id":2}]');
    await screenshotBothSchemes(page, 'mocks-folder-watcher');

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await visible(page.getByRole('button', { name: 'Connect folder' }));
    expect(errors).toEqual([]);
  });
});
