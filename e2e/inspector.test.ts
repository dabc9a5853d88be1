import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage, SettingsResponse, type CompactItem } from '@spyglass/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../apps/simulator/src';
import { signedInContext, signUpByApi } from './support/accounts';
import { recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { answerOf, visible } from './support/page';
import type { RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

const apiHeaders = (token: string) => ({ authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD });

/** What the server stored for a device (GET /v1/requests as the signed-in user). */
async function storedItems(server: RunningServer, token: string, deviceId: string): Promise<CompactItem[]> {
  const res = await fetch(`${server.url}/v1/requests?${new URLSearchParams({ deviceId, limit: '5000' }).toString()}`, { headers: apiHeaders(token) });
  if (res.status !== 200) throw new Error(`GET /v1/requests answered ${res.status}: ${await res.text()}`);
  return RequestsPage.parse(await res.json()).items;
}

async function storedSettings(server: RunningServer, token: string) {
  const res = await fetch(`${server.url}/v1/user/settings`, { headers: apiHeaders(token) });
  return SettingsResponse.parse(await res.json()).settings;
}

/** The stats bar's text, e.g. 'Requests: 12 (Total: 12)'. */
const stats = (page: Page) => page.locator('.inspector-stats-text');
const rows = (page: Page) => page.locator('.req-row');
const rowOfNum = (page: Page, num: number) => page.locator('.req-row').filter({ has: page.locator('.req-td-id', { hasText: new RegExp(`^${num}$`) }) });

async function statsCounts(page: Page): Promise<{ shown: number; total: number }> {
  const text = await stats(page).innerText();
  const match = /Requests: (\d+) \(Total: (\d+)\)/.exec(text);
  if (!match) throw new Error(`Unexpected stats text: ${text}`);
  return { shown: Number(match[1]), total: Number(match[2]) };
}

/** Issue 5, acceptance 1: the live request inspector with the simulator streaming into it. */
describe('request inspector', () => {
  const env = useE2eEnvironment();
  let context: BrowserContext | undefined;
  let simulator: Simulator | undefined;

  afterEach(async () => {
    await simulator?.stop();
    simulator = undefined;
    await context?.close();
    context = undefined;
  });

  it('shows live items, filters, selects, deletes, clears and keeps its layout across a reload', async () => {
    const account = await signUpByApi(env.server);
    ({ context } = await signedInContext(env.browser, env.server, account));
    const page = await context.newPage();
    const errors = recordPageErrors(page);

    simulator = await startSimulator({ serverUrl: env.server.url, apiKey: account.profile.apiKey, devices: 1, rate: 0, platforms: ['ios'], seed: 11 });
    await simulator.connected();
    const device = simulator.devices[0]!;
    const deviceId = device.installId;

    // Items sent before the page's live subscription reached the server would only show after a reload.
    const subscribed = new Promise<void>((resolve) => page.on('websocket', (ws) => ws.on('framesent', (frame) => {
      if (String(frame.payload).includes('"subscribe"') && String(frame.payload).includes(deviceId)) resolve();
    })));
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByText('No Requests yet'));
    await subscribed;
    await visible(page.getByText('Spyglass.log("Hello from my app", level: .info)'));

    // Live: items arrive while the screen is open and show as rows.
    for (const kind of ['network', 'log', 'network', 'event', 'network', 'log', 'analytics', 'screenshot', 'network', 'log'] as const) await device.act(kind);
    await simulator.flush();
    const stored = await storedItems(env.server, account.token, deviceId);
    expect(stored.length).toBe(10);
    await visible(page.getByText('Requests: 10 (Total: 10)'));
    await expect.poll(() => rows(page).count()).toBe(10);
    // Newest first: the first row is the highest number.
    const nums = stored.map((item) => item.num).sort((a, b) => b - a);
    expect(await rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[0]));

    // Default columns of spec 001 §3.
    expect(await page.locator('.req-th').allInnerTexts()).toEqual(['ID', 'Details', 'Created', 'Type', 'Level']);

    // Filter by type.
    await page.getByRole('button', { name: 'Logs', exact: true }).click();
    await visible(page.getByText('Requests: 3 (Total: 10)'));
    await expect.poll(() => rows(page).count()).toBe(3);
    for (let i = 0; i < 3; i++) expect(await rows(page).nth(i).getAttribute('data-type')).toBe('log');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await visible(page.getByText('Requests: 10 (Total: 10)'));

    // Sorting: ID ascending, then back to the default.
    await page.locator('.req-th[data-column="id"] button').click();
    await expect.poll(async () => rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[nums.length - 1]));
    await page.locator('.req-th[data-column="createdAt"] button').click();
    await page.locator('.req-th[data-column="createdAt"] button').click();
    await expect.poll(async () => rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[0]));

    // Selection: click, Shift+click a range, Ctrl+click toggles one out.
    await rows(page).nth(1).click();
    await visible(page.getByText('Selected 1 of 10 requests (Total: 10)'));
    await rows(page).nth(4).click({ modifiers: ['Shift'] });
    await visible(page.getByText('Selected 4 of 10 requests (Total: 10)'));
    await rows(page).nth(2).click({ modifiers: ['Control'] });
    await visible(page.getByText('Selected 3 of 10 requests (Total: 10)'));
    await page.keyboard.press('Control+a');
    await visible(page.getByText('Selected 10 of 10 requests (Total: 10)'));
    await rows(page).nth(0).click();
    await page.keyboard.press('ArrowDown');
    expect(await rows(page).nth(1).getAttribute('aria-selected')).toBe('true');

    // Delete one from its hover action; the server forgets it.
    const victim = nums[3]!;
    const victimRow = rowOfNum(page, victim);
    await victimRow.hover();
    const deleted = await answerOf(page, 'DELETE', `/requests/${stored.find((item) => item.num === victim)!.id}`,
      () => victimRow.getByRole('button', { name: `Delete request ${victim}` }).click());
    expect(deleted.status()).toBe(200);
    await visible(page.getByText(/of 9 requests \(Total: 9\)|Requests: 9 \(Total: 9\)/));
    expect(await rowOfNum(page, victim).count()).toBe(0);
    expect((await storedItems(env.server, account.token, deviceId)).some((item) => item.num === victim)).toBe(false);

    // Delete key deletes the selection (not while typing).
    await rows(page).nth(0).click();
    await page.keyboard.press('Delete');
    await visible(page.getByText('Requests: 8 (Total: 8)'));

    // The row menu deletes too.
    await rows(page).nth(0).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await visible(page.getByText('Requests: 7 (Total: 7)'));

    // Column layout: hide Level, show Status, widen Details; view mode is kept too (below).
    await page.locator('.req-th[data-column="type"]').click({ button: 'right' });
    await page.getByRole('menuitemcheckbox', { name: 'Level' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Status' }).click();
    await page.keyboard.press('Escape');
    expect(await page.locator('.req-th').allInnerTexts()).toEqual(['ID', 'Details', 'Created', 'Type', 'Status']);
    const handle = page.getByRole('separator', { name: 'Resize column Details' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await storedSettings(env.server, account.token)).columns.find((c) => c.id === 'details')?.width).toBeGreaterThan(480);
    const saved = await storedSettings(env.server, account.token);
    expect(saved.columns.find((c) => c.id === 'level')?.isVisible).toBe(false);
    const detailsWidth = saved.columns.find((c) => c.id === 'details')!.width;

    await screenshotBothSchemes(page, 'inspector-table');

    // Reload: the layout is kept.
    await page.reload();
    await visible(page.getByText('Requests: 7 (Total: 7)'));
    expect(await page.locator('.req-th').allInnerTexts()).toEqual(['ID', 'Details', 'Created', 'Type', 'Status']);
    const headBox = await page.locator('.req-th[data-column="details"]').boundingBox();
    expect(Math.round(headBox!.width)).toBe(detailsWidth);

    // Clear all.
    const cleared = await answerOf(page, 'DELETE', `/devices/${deviceId}/requests`, () => page.getByRole('button', { name: 'Clear requests' }).click());
    expect(cleared.status()).toBe(200);
    await visible(page.getByText('Requests cleared'));
    await visible(page.getByText('No Requests yet'));
    expect(await storedItems(env.server, account.token, deviceId)).toEqual([]);
    await page.getByRole('button', { name: 'Clear requests' }).click();
    await visible(page.getByText('No requests to clear'));

    expect(errors).toEqual([]);
  });
});
