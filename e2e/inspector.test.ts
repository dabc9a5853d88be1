import { compileFilter, SettingsResponse, SearchTextCache, type CompactItem } from '@spyglass/protocol';
import type { Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiHeaders, fullItem, storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { rowOfNum } from './support/inspector';
import { answerOf, clipboardText, visible } from './support/page';
import { SCREENSHOT_DIR } from './support/paths';
import type { RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

async function storedSettings(server: RunningServer, token: string) {
  const res = await fetch(`${server.url}/v1/user/settings`, { headers: apiHeaders(token) });
  return SettingsResponse.parse(await res.json()).settings;
}

/** The stats bar's text, e.g. 'Requests: 12 (Total: 12)'. */
const rows = (page: Page) => page.locator('.req-row');

const isJsonResponse = (item: CompactItem) => item.type === 'network'
  && Object.entries(item.details.response?.headers ?? {}).some(([name, value]) => name.toLowerCase() === 'content-type' && value.includes('json'));
const hasStackTrace = (item: CompactItem) => item.type === 'log' && (item.details.stackTrace?.length ?? 0) > 0;

/** Issue 5, acceptance 1: the live request inspector with the simulator streaming into it. */
describe('request inspector', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('shows live items in table and console, filters, searches, selects, opens details, deletes, clears and keeps its layout', async () => {
    const { account, page, errors, simulator, device, deviceId } = await fixtures.signedInWithDevice({
      context: { permissions: ['clipboard-read', 'clipboard-write'] }, simulator: { platforms: ['ios'], seed: 11 },
    });

    // Items sent before the page's live subscription reached the server would only show after a reload.
    const subscribed = new Promise<void>((resolve) => page.on('websocket', (ws) => ws.on('framesent', (frame) => {
      if (String(frame.payload).includes('"subscribe"') && String(frame.payload).includes(deviceId)) resolve();
    })));
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByText('No Requests yet'));
    await visible(page.getByText('Spyglass.log("Hello from my app", level: .info)'));
    await subscribed;

    // Live: items arrive while the screen is open and show as rows, newest first.
    for (const kind of ['network', 'log', 'network', 'event', 'network', 'log', 'analytics', 'screenshot', 'network', 'log'] as const) await device.act(kind);
    await simulator.flush();
    let stored = await storedItems(env.server, account.token, deviceId);
    // The simulator's mix is seeded; these loops only make sure of the kinds the story needs.
    for (let i = 0; i < 30 && !stored.some(hasStackTrace); i++) {
      await device.act('log');
      await simulator.flush();
      stored = await storedItems(env.server, account.token, deviceId);
    }
    for (let i = 0; i < 30 && !stored.some(isJsonResponse); i++) {
      await device.act('network');
      await simulator.flush();
      stored = await storedItems(env.server, account.token, deviceId);
    }
    const n = stored.length;
    await visible(page.getByText(`Requests: ${n} (Total: ${n})`));
    await expect.poll(() => rows(page).count()).toBe(n);
    const nums = stored.map((item) => item.num).sort((a, b) => b - a);
    expect(await rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[0]));
    // Default columns of spec 001 §3.
    expect(await page.locator('.req-th').allInnerTexts()).toEqual(['ID', 'Details', 'Created', 'Type', 'Level']);

    // The console shows the same items, oldest first, and live ones as they come.
    await page.getByRole('button', { name: 'Console view' }).click();
    await expect.poll(() => page.locator('.console-line').count()).toBe(n);
    await device.act('event');
    await simulator.flush();
    await expect.poll(() => page.locator('.console-line').count()).toBe(n + 1);
    await visible(page.getByText(`Requests: ${n + 1} (Total: ${n + 1})`));
    await page.getByRole('button', { name: 'Table view' }).click();
    await expect.poll(() => rows(page).count()).toBe(n + 1);
    stored = await storedItems(env.server, account.token, deviceId);
    const total = stored.length;
    nums.splice(0, nums.length, ...stored.map((item) => item.num).sort((a, b) => b - a));

    // The bar chart counts the shown requests; a bar click scrolls the table to its first request.
    await page.getByRole('button', { name: 'Show bar chart' }).click();
    const chart = await visible(page.getByRole('region', { name: 'Requests over time' }));
    await visible(chart.locator('.bar-chart-bar').first());
    await chart.locator('.bar-chart-bar').last().click();
    await page.getByRole('button', { name: 'Hide bar chart' }).click();
    expect(await page.getByRole('region', { name: 'Requests over time' }).count()).toBe(0);

    // Filter by type.
    const logs = stored.filter((item) => item.type === 'log').length;
    await page.getByRole('button', { name: 'Logs', exact: true }).click();
    await visible(page.getByText(`Requests: ${logs} (Total: ${total})`));
    await expect.poll(() => rows(page).count()).toBe(logs);
    for (let i = 0; i < logs; i++) expect(await rows(page).nth(i).getAttribute('data-type')).toBe('log');
    await expect.poll(async () => (await storedSettings(env.server, account.token)).activeFilter).toBe('log');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await visible(page.getByText(`Requests: ${total} (Total: ${total})`));

    // Filter by a search tag: Enter commits the typed text as a tag.
    const jsonItem = stored.find(isJsonResponse)!;
    const needle = new URL(jsonItem.type === 'network' ? jsonItem.details.request.url : '').pathname;
    const expected = stored.filter((item) => compileFilter({ type: 'text', value: needle, caseSensitive: false }, { texts: new SearchTextCache() })(item, -1)).length;
    const searchInput = page.getByRole('combobox', { name: 'Search' }).or(page.getByRole('textbox', { name: 'Search' }));
    await searchInput.fill(needle);
    await searchInput.press('Enter');
    await visible(page.getByRole('button', { name: `Remove ${needle}` }));
    await visible(page.getByText(`Requests: ${expected} (Total: ${total})`));
    await page.getByRole('button', { name: `Remove ${needle}` }).click();
    await visible(page.getByText(`Requests: ${total} (Total: ${total})`));
    await searchInput.fill('no-such-thing-anywhere');
    await searchInput.press('Enter');
    await visible(page.getByText('No Search Results'));
    await page.getByRole('button', { name: 'Clear Search', exact: true }).click();
    await visible(page.getByText(`Requests: ${total} (Total: ${total})`));

    // Sorting: ID ascending, then createdAt back to descending.
    await page.locator('.req-th[data-column="id"] button').click();
    await expect.poll(async () => rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[nums.length - 1]));
    await page.locator('.req-th[data-column="createdAt"] button').click();
    await page.locator('.req-th[data-column="createdAt"] button').click();
    await expect.poll(async () => rows(page).first().locator('.req-td-id').innerText()).toBe(String(nums[0]));

    // Selection: click, Shift+click a range, Ctrl+click toggles one out, Ctrl+A, arrows.
    await rows(page).nth(1).click();
    await visible(page.getByText(`Selected 1 of ${total} requests (Total: ${total})`));
    await rows(page).nth(4).click({ modifiers: ['Shift'] });
    await visible(page.getByText(`Selected 4 of ${total} requests (Total: ${total})`));
    await rows(page).nth(2).click({ modifiers: ['Control'] });
    await visible(page.getByText(`Selected 3 of ${total} requests (Total: ${total})`));
    await page.keyboard.press('Control+a');
    await visible(page.getByText(`Selected ${total} of ${total} requests (Total: ${total})`));
    await rows(page).nth(0).click();
    await page.keyboard.press('ArrowDown');
    expect(await rows(page).nth(1).getAttribute('aria-selected')).toBe('true');

    // Details of a JSON response: the body as a JSON tree.
    const jsonFull = await fullItem(env.server, account.token, jsonItem.id);
    const body = jsonFull.type === 'network' ? JSON.parse(jsonFull.details.response!.body!) as unknown : null;
    const firstKey = body && typeof body === 'object' ? Object.keys(body)[0] : undefined;
    await page.getByRole('button', { name: 'Show bar chart' }).click();
    await rowOfNum(page, jsonItem.num).click();
    const details = page.getByRole('region', { name: 'Details' });
    await visible(details.getByRole('tree').first());
    if (firstKey) await visible(details.getByRole('tree').first().getByText(firstKey, { exact: false }));
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'inspector-screen-details-json');
    await page.getByRole('button', { name: 'Hide bar chart' }).click();

    // An image: the screenshot.
    const shot = stored.find((item) => item.type === 'screenshot')!;
    await rowOfNum(page, shot.num).click();
    await visible(details.getByRole('img'));

    // A log with its stack trace.
    const crash = stored.find(hasStackTrace)!;
    await rowOfNum(page, crash.num).click();
    await visible(details.getByRole('table', { name: 'Stack trace' }));
    await screenshotBothSchemes(page, 'inspector-screen-details-log');
    await page.keyboard.press('Escape');
    await expect.poll(() => details.count()).toBe(0);

    // Copy as CURL from the row menu of a network item.
    await rowOfNum(page, jsonItem.num).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy as CURL' }).click();
    await visible(page.getByText('Copied to clipboard'));
    expect(await clipboardText(page)).toContain('curl');

    // Save as Mock Route from the same menu (network items, device view).
    await rowOfNum(page, jsonItem.num).click({ button: 'right' });
    const route = await answerOf(page, 'POST', '/mocked-routes', () => page.getByRole('menuitem', { name: 'Save as Mock Route' }).click());
    expect(route.status()).toBe(201);
    await visible(page.getByText('Mock route saved successfully'));
    // Not for other types.
    await rowOfNum(page, crash.num).click({ button: 'right' });
    await visible(page.getByRole('menuitem', { name: 'Export' }));
    expect(await page.getByRole('menuitem', { name: 'Save as Mock Route' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Copy as CURL' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Export of the selection from the stats bar.
    await rows(page).nth(0).click();
    await rows(page).nth(2).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await visible(page.getByRole('dialog', { name: 'Export' }));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Export' }).count()).toBe(0);

    // Delete one from its hover action; the server forgets it.
    const victim = nums[3]!;
    const victimRow = rowOfNum(page, victim);
    await victimRow.hover();
    const deleted = await answerOf(page, 'DELETE', `/requests/${stored.find((item) => item.num === victim)!.id}`,
      () => victimRow.getByRole('button', { name: `Delete request ${victim}` }).click());
    expect(deleted.status()).toBe(200);
    await visible(page.getByText(new RegExp(`of ${total - 1} requests \\(Total: ${total - 1}\\)|Requests: ${total - 1} \\(Total: ${total - 1}\\)`)));
    expect(await rowOfNum(page, victim).count()).toBe(0);
    expect((await storedItems(env.server, account.token, deviceId)).some((item) => item.num === victim)).toBe(false);

    // The Delete key deletes the selection.
    await rows(page).nth(0).click();
    await page.keyboard.press('Delete');
    await visible(page.getByText(`Requests: ${total - 2} (Total: ${total - 2})`));

    // The row menu deletes too.
    await rows(page).nth(0).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await visible(page.getByText(`Requests: ${total - 3} (Total: ${total - 3})`));
    const left = total - 3;

    // Column layout: hide Level, show Status, widen Details.
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
    await page.mouse.move(0, 0);
    await page.evaluate('document.activeElement?.blur()');
    await screenshotBothSchemes(page, 'inspector-screen-table');

    // Reload in the console view: view mode and column layout are kept.
    await page.getByRole('button', { name: 'Console view' }).click();
    await expect.poll(async () => (await storedSettings(env.server, account.token)).viewMode).toBe('console');
    await page.reload();
    // A whole page load and the history's first page: more than expect.poll's default second on a busy machine.
    await expect.poll(() => page.locator('.console-line').count(), { timeout: 15_000 }).toBe(left);
    expect(await page.getByRole('button', { name: 'Console view' }).getAttribute('aria-pressed')).toBe('true');
    await screenshotBothSchemes(page, 'inspector-screen-console');
    await page.getByRole('button', { name: 'Table view' }).click();
    await visible(page.getByText(`Requests: ${left} (Total: ${left})`));
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

  it('pages older history in as the table is scrolled down, and fits a narrow screen', async () => {
    const { account, page, errors, simulator, device } = await fixtures.signedInWithDevice({ simulator: { platforms: ['android'], seed: 5 } });
    const count = 2500;
    for (let i = 0; i < count; i++) device.client.log(`History line ${i + 1}`, { level: i % 50 === 0 ? 'error' : 'info', category: 'history' });
    await simulator.flush();
    expect((await storedItems(env.server, account.token, device.installId)).length).toBe(count);

    await page.goto(`/devices/${device.installId}`);
    // The first page (newest first), not everything; Total is already the device's stored count.
    await visible(page.getByText(new RegExp(`^Requests: \\d+ \\(Total: ${count}\\)$`)));
    expect((await rows(page).first().innerText())).toContain(`History line ${count}`);
    const shown = /^Requests: (\d+)/.exec(await page.locator('.inspector-stats-text').innerText())![1];
    expect(Number(shown)).toBeLessThan(count);

    // Scrolling towards the oldest loaded row asks for the next page, until the oldest item shows.
    const scroller = page.locator('.req-table-rows');
    await scroller.hover();
    await expect.poll(async () => {
      await page.mouse.wheel(0, 100_000);
      return page.locator('.inspector-stats-text').innerText();
    }, { timeout: 60_000 }).toBe(`Requests: ${count} (Total: ${count})`);
    await page.mouse.wheel(0, 100_000);
    await visible(rows(page).filter({ has: page.locator('.req-td-details', { hasText: /^History line 1$/ }) }));

    // A phone-sized screen: the toolbar wraps, nothing overflows the page sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await visible(page.getByRole('button', { name: 'Logs', exact: true }));
    await visible(page.getByRole('textbox', { name: 'Search' }).or(page.getByRole('combobox', { name: 'Search' })));
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.evaluate('document.activeElement?.blur()');
    // The rows scroll inside their panel: a picture of the viewport, not of 2,500 rows.
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `inspector-screen-narrow-${colorScheme}.png`), animations: 'disabled' });
    }
    expect(errors).toEqual([]);
  });
});
