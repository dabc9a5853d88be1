import { isSdkOutdated, MIN_SDK_VERSION } from '@spyglass/protocol';
import type { BrowserContext, Locator, Page, Route, WebSocketRoute } from 'playwright-core';
import { startSimulator, type Simulator } from '@spyglass/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { signedInContext, signInWithForm, signUpByApi } from './support/accounts';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { apiHeaders } from './support/api';
import { answerOf, clipboardText, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Counts the page's live connections and resolves once one of them has said `init`. */
function watchLiveChannel(page: Page): { opened: () => number; ready: Promise<void> } {
  let opened = 0;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.startsWith('/ws')) return;
    opened++;
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"type":"init"')) markReady();
    });
  });
  return { opened: () => opened, ready };
}

/** Issue 4, web: the connect screen sees a simulated device arrive live, and the device list shows it. */
describe('device list and connect screen', () => {
  const env = useE2eEnvironment();
  let context: BrowserContext | undefined;
  const simulators: Simulator[] = [];

  afterEach(async () => {
    await Promise.all(simulators.splice(0).map((s) => s.stop()));
    await context?.close();
    context = undefined;
  });

  it('connects the simulator from /devices/new, lists its devices live, searches and keeps a hidden column', async () => {
    const account = await signUpByApi(env.server);
    context = await newContext(env.browser, env.server.url, { permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const live = watchLiveChannel(page);

    await signInWithForm(page, account.email, account.password);
    await visible(page.getByText('No Devices', { exact: true }));
    await page.getByRole('link', { name: 'Add Device', exact: true }).click();
    await page.waitForURL('**/devices/new');
    await visible(page.getByText('Waiting for devices to connect...'));
    await live.ready;

    // The key the page shows is the account's, and the QR code and snippets carry it.
    const apiKey = (await (await visible(page.getByLabel('API Key', { exact: true }))).textContent())!.trim();
    expect(apiKey).toBe(account.profile.apiKey);
    expect(await page.getByRole('img', { name: 'QR code with your API key' }).count()).toBe(1);
    await page.getByRole('tab', { name: 'JavaScript' }).click();
    const snippet = await visible(page.getByLabel('JavaScript snippet'));
    expect(await snippet.textContent()).toContain(`apiKey: '${apiKey}'`);
    await screenshotBothSchemes(page, 'devices-new');
    const tracked = await answerOf(page, 'POST', '/analytics/track', () => page.getByRole('button', { name: 'Copy JavaScript snippet' }).click());
    expect(tracked.request().postDataJSON()).toEqual({ eventType: 'code_snippet_copied', eventData: { platform: 'javascript', language: 'typescript' } });
    expect(await clipboardText(page)).toContain("import { createSpyglass } from '@spyglass/sdk';");

    const simulator = await startSimulator({ serverUrl: env.server.url, apiKey, devices: 3, rate: 0, seed: 4 });
    simulators.push(simulator);
    await simulator.connected();
    await visible(page.getByText('New device connected!'));
    await screenshotBothSchemes(page, 'devices-new-connected');

    await page.getByRole('link', { name: 'All devices' }).click();
    await page.waitForURL(/\/devices$/);
    const names = simulator.devices.map((d) => d.info.name!);
    const rowOf = (name: string) => page.getByRole('row').filter({ hasText: name });
    for (const name of names) await visible(rowOf(name).getByRole('img', { name: 'Online' }));
    await visible(page.getByRole('heading', { name: 'Devices (3)' }));
    // One connection per tab: moving between screens does not open another.
    expect(live.opened()).toBe(1);
    // The 'New Device added' toasts of the three arrivals have gone (3 s) before the picture.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'devices');

    // Spec 000 §5: an SDK older than the platform minimum shows the version to update to.
    const outdated = simulator.devices.find((d) => isSdkOutdated(d.info.platform as 'ios' | 'android', d.info.sdkVersion));
    const current = simulator.devices.find((d) => !isSdkOutdated(d.info.platform as 'ios' | 'android', d.info.sdkVersion));
    expect(outdated && current).toBeTruthy();
    const latest = MIN_SDK_VERSION[outdated!.info.platform as 'ios' | 'android'];
    const outdatedCell = rowOf(outdated!.info.name!).locator('td.device-td-sdkVersion');
    expect((await outdatedCell.textContent())!.trim()).toBe(latest);
    await outdatedCell.locator('.sdk-outdated').hover();
    const outdatedTip = await visible(page.getByRole('tooltip', { name: `Your SDK is outdated. Please update to ${latest}` }));
    // Radix closes a tooltip on the pointer moves after leaving its trigger, as a real pointer makes.
    await page.mouse.move(0, 0, { steps: 4 });
    await outdatedTip.waitFor({ state: 'detached' });
    await rowOf(current!.info.name!).locator('td.device-td-sdkVersion .cell-text').hover();
    await visible(page.getByRole('tooltip', { name: 'Your SDK is up to date' }));

    // Up/Down move the selection; Ctrl+A selects every row (wherever the focus is but in a field).
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('tbody tr[aria-selected="true"]').count()).toBe(1);
    await page.keyboard.press('ControlOrMeta+a');
    await expect.poll(() => page.locator('tbody tr[aria-selected="true"]').count()).toBe(3);

    // Search by name, then a search that matches nothing, then clear it.
    const search = page.getByRole('searchbox', { name: 'Search devices' });
    await search.fill(names[1]!);
    await visible(rowOf(names[1]!));
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await search.fill('no device is called this');
    await visible(page.getByText('No Search Results', { exact: true }));
    await page.getByRole('button', { name: 'Clear Search', exact: true }).click();
    await visible(rowOf(names[0]!));
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3);

    // A column hidden through the header's context menu stays hidden after a reload.
    expect(await page.getByRole('columnheader', { name: 'Bundle ID' }).count()).toBe(1);
    await page.getByRole('columnheader', { name: 'Group' }).click({ button: 'right' });
    const saved = await answerOf(page, 'POST', '/user/settings', async () => {
      await (await visible(page.getByRole('menuitemcheckbox', { name: 'Bundle ID' }))).click();
    });
    const columns = (saved.request().postDataJSON() as { settings: { deviceColumns: Array<{ id: string; isVisible: boolean; width: number }> } }).settings.deviceColumns;
    expect(columns.find((c) => c.id === 'bundleId')).toMatchObject({ isVisible: false, width: 250 });
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Bundle ID' }).waitFor({ state: 'detached' });

    // Dragging a column edge resizes it, saved once on release.
    const handle = await visible(page.getByRole('separator', { name: 'Resize column Device Name', exact: true }));
    // 150 px by default, and so drawn at 1280 px: the columns the list is not read by give way instead.
    const start = Number(await handle.getAttribute('aria-valuenow'));
    expect(start).toBe(150);
    const box = (await handle.boundingBox())!;
    const resized = await answerOf(page, 'POST', '/user/settings', async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
      await page.mouse.up();
    });
    const afterResize = (resized.request().postDataJSON() as { settings: { deviceColumns: Array<{ id: string; width: number }> } }).settings.deviceColumns;
    expect(afterResize.find((c) => c.id === 'name')!.width).toBe(start + 60);

    await page.reload();
    await visible(rowOf(names[0]!));
    expect(await page.getByRole('columnheader', { name: 'Bundle ID' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Group' }).count()).toBe(1);
    // A width the user set is kept as it is; the columns still at their default give way.
    expect(Number(await page.getByRole('separator', { name: 'Resize column Device Name', exact: true }).getAttribute('aria-valuenow'))).toBe(start + 60);
    expect(await page.getByLabel('Devices table: Up and Down select, Enter opens').evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Statuses change live: a new device is appended with a toast, stopped devices go offline.
    const another = await startSimulator({ serverUrl: env.server.url, apiKey, devices: 1, rate: 0, seed: 9, idPrefix: `late-${Date.now()}` });
    simulators.push(another);
    await visible(page.getByText('New Device added'));
    await visible(rowOf(another.devices[0]!.info.name!).getByRole('img', { name: 'Online' }));
    await visible(page.getByRole('heading', { name: 'Devices (4)' }));
    await simulator.stop();
    for (const name of names) await visible(rowOf(name).getByRole('img', { name: 'Offline' }));

    // On a phone the list keeps its columns (scrolling sideways) under the mobile info box.
    const phone = await signedInContext(env.browser, env.server, account, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await phone.page.goto('/devices');
      await visible(phone.page.getByRole('row').filter({ hasText: names[0]! }));
      await visible(phone.page.getByRole('note'));
      // Columns that could not fit even squeezed keep their widths: 'iPhone 15', not 'i…'.
      const modelWidth = await phone.page.getByRole('columnheader', { name: 'Device Model' })
        .evaluate((el: { getBoundingClientRect(): { width: number } }) => el.getBoundingClientRect().width);
      expect(modelWidth).toBeGreaterThanOrEqual(190);
      await screenshotBothSchemes(phone.page, 'devices-mobile');
    } finally {
      await phone.context.close();
    }

    // A plain click opens the device.
    await rowOf(names[0]!).click();
    await page.waitForURL(`**/devices/${encodeURIComponent(simulator.devices[0]!.installId)}`);
  });

  /**
   * At 1280 px with the right sidebar open the table has 690 px for columns whose defaults add up
   * to 1350: squeezed in proportion, every cell was cut ('iPhon…', 'Alex'…', 'just n…', '⚠ 1…').
   * The columns the list is read by (Device Name, Last Seen, SDK) keep what they need; the others
   * give way first. Widths saved before (every column at its default, as a hide or a resize saves
   * them) fit the same way.
   */
  it('keeps the device name, last seen and the SDK to update to whole at 1280 px beside the right sidebar', async () => {
    const account = await signUpByApi(env.server);
    const simulator = await startSimulator({ serverUrl: env.server.url, apiKey: account.profile.apiKey, devices: 3, rate: 0, seed: 4 });
    simulators.push(simulator);
    await simulator.connected();
    const opened = await signedInContext(env.browser, env.server, account);
    context = opened.context;
    const page = opened.page;
    await page.goto('/devices');
    const names = simulator.devices.map((d) => d.info.name!);
    const rowOf = (name: string) => page.getByRole('row').filter({ hasText: name });
    for (const name of names) await visible(rowOf(name).getByRole('img', { name: 'Online' }));
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Show right sidebar' }).click());
    await visible(page.getByRole('separator', { name: 'Resize right sidebar', exact: true }));

    const outdated = simulator.devices.find((d) => isSdkOutdated(d.info.platform as 'ios' | 'android', d.info.sdkVersion))!;
    const latest = MIN_SDK_VERSION[outdated.info.platform as 'ios' | 'android'];
    interface Cell { scrollWidth: number; clientWidth: number }
    const isWhole = (locator: Locator) => locator.evaluate((el: Cell) => el.scrollWidth <= el.clientWidth);
    async function expectImportantColumnsWhole(): Promise<void> {
      const table = page.getByLabel('Devices table: Up and Down select, Enter opens');
      await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
      // The table is what the sidebar leaves it: 1280 - 220 - 320 less the page's padding.
      expect(await table.evaluate((el: Cell) => el.clientWidth)).toBeLessThanOrEqual(700);
      for (const name of names) {
        const row = rowOf(name);
        expect(await row.locator('td.device-td-name .cell-text').innerText()).toBe(name);
        expect(await isWhole(row.locator('td.device-td-name .cell-text')), `name ${name}`).toBe(true);
        expect(await isWhole(row.locator('td.device-td-lastSeen .cell-text')), `last seen of ${name}`).toBe(true);
        expect(await isWhole(row.locator('td.device-td-sdkVersion .cell-text')), `SDK of ${name}`).toBe(true);
      }
      expect(await rowOf(outdated.info.name!).locator('td.device-td-sdkVersion .cell-text').innerText()).toBe(latest);
      for (const id of ['name', 'lastSeen', 'sdkVersion']) {
        expect(await isWhole(page.locator(`th.device-th-${id} .cell-text`)), `header of ${id}`).toBe(true);
      }
      // Every column shows, none under the spec's 60 px.
      for (const id of ['status', 'model', 'name', 'bundleId', 'group', 'systemVersion', 'id', 'lastSeen', 'sdkVersion']) {
        const box = (await page.locator(`th.device-th-${id}`).boundingBox())!;
        expect(box.width, id).toBeGreaterThanOrEqual(60);
      }
    }
    await expectImportantColumnsWhole();
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'devices-right-sidebar');

    // Columns saved with every width at its default (what hiding or resizing any column stores) fit alike.
    const saved = await fetch(`${env.server.url}/v1/user/settings`, {
      method: 'POST',
      headers: { ...apiHeaders(account.token), 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { deviceColumns: [
        { id: 'status', label: 'Status', isVisible: true, width: 60 }, { id: 'model', label: 'Device Model', isVisible: true, width: 200 },
        { id: 'name', label: 'Device Name', isVisible: true, width: 150 }, { id: 'bundleId', label: 'Bundle ID', isVisible: true, width: 250 },
        { id: 'group', label: 'Group', isVisible: true, width: 120 }, { id: 'systemVersion', label: 'OS', isVisible: true, width: 120 },
        { id: 'id', label: 'ID', isVisible: true, width: 200 }, { id: 'lastSeen', label: 'Last Seen', isVisible: true, width: 150 },
        { id: 'sdkVersion', label: 'SDK', isVisible: true, width: 100 },
      ] } }),
    });
    expect(saved.status).toBe(200);
    await page.reload();
    for (const name of names) await visible(rowOf(name).getByRole('img', { name: 'Online' }));
    await expectImportantColumnsWhole();
  });

  it('says when the list cannot load, retries, keeps the list on a failed refresh, and opens the help panel', async () => {
    const account = await signUpByApi(env.server);
    const opened = await signedInContext(env.browser, env.server, account);
    context = opened.context;
    const page = opened.page;
    const refuse = (route: Route) => route.abort('connectionrefused');
    await page.route('**/v1/devices', refuse);
    await page.goto('/devices');
    await visible(page.getByText('Failed to load devices...', { exact: true }));

    await page.unroute('**/v1/devices', refuse);
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await visible(page.getByText('No Devices', { exact: true }));

    // A refresh that fails keeps what was loaded, under a dismissible banner.
    await page.route('**/v1/devices', refuse);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const banner = await visible(page.getByRole('alert').filter({ hasText: 'Failed to load devices' }));
    expect(await page.getByText('No Devices', { exact: true }).count()).toBe(1);
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.unroute('**/v1/devices', refuse);

    const help = await answerOf(page, 'POST', '/analytics/track', () => page.getByRole('button', { name: 'Help', exact: true }).click());
    expect(help.request().postDataJSON()).toEqual({ eventType: 'need_help' });
    await visible(page.getByRole('heading', { name: 'About devices' }));
    await screenshotBothSchemes(page, 'devices-help');
    await page.getByRole('button', { name: 'Close help' }).click();
    await page.getByRole('heading', { name: 'About devices' }).waitFor({ state: 'detached' });
  });

  it('shows the lost live connection with its close code and countdown, and hides it once reconnected', async () => {
    const account = await signUpByApi(env.server);
    const opened = await signedInContext(env.browser, env.server, account);
    context = opened.context;
    const page = opened.page;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket((url) => url.pathname === '/ws', (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.goto('/devices');
    await visible(page.getByText('No Devices', { exact: true }));
    const banner = page.getByText(/^WebSocket connection lost \(\d+\)\. Reconnecting in \d+s\.\.\.$/);
    await expect.poll(() => sockets.length).toBe(1);
    expect(await banner.count()).toBe(0);

    await sockets[0]!.close({ code: 4011, reason: 'Closed by the test' });
    const shown = await visible(banner);
    // 5 s · 2^0 plus up to 1.5 s of jitter, counted down in whole seconds.
    const seconds = Number(/Reconnecting in (\d+)s/.exec((await shown.textContent())!)![1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(7);
    expect(await shown.textContent()).toContain('WebSocket connection lost (4011).');

    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => sockets.length).toBe(2);
  });
});
