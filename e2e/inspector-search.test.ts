import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { SCREENSHOT_DIR } from './support/paths';
import { screenshotBothSchemes } from './support/screenshots';

/** The console's scroll box (this program is compiled without the DOM library). */
interface ScrollBox {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

const statsText = (page: Page, shown: number, total: number) => page.getByText(`Requests: ${shown} (Total: ${total})`, { exact: true });
const consoleRows = (page: Page) => page.locator('.console-rows');
const atBottom = (page: Page) => consoleRows(page).evaluate((el: ScrollBox) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
/**
 * Light and dark pictures of the viewport as it is: `screenshotBothSchemes` grows the viewport to
 * show every row, which would bring the console back to its bottom and hide the toast.
 */
async function screenshotViewport(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${scheme}.png`), animations: 'disabled' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const minutesOf = (dateTimeLocal: string) => Date.parse(dateTimeLocal) / 60_000;

/** Issue 5: the search bar and the console view, with the simulator streaming into a real server. */
describe('request inspector: search and console', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('searches with tags, suggestions, Aa and the date range, and follows the bottom in the console', async () => {
    const { account, page, errors, simulator, device, deviceId } = await fixtures.signedInWithDevice({ simulator: { platforms: ['android'], seed: 23 } });
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByText('No Requests yet'));

    for (const kind of ['network', 'network', 'network', 'network', 'event'] as const) await device.act(kind);
    device.client.log('Payment zebra declined', { level: 'error' });
    device.client.log('Zebra crossing rendered', { level: 'info' });
    await simulator.flush();
    const stored = await storedItems(env.server, account.token, deviceId);
    const total = stored.length;
    expect(total).toBe(7);
    await visible(statsText(page, total, total));

    // Suggestions offer the values seen in the data; the arrows and Enter pick one as a tag.
    const input = page.getByRole('combobox', { name: 'Search' });
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await input.click();
    await input.pressSequentially('err');
    await visible(suggestions.getByRole('option', { name: 'Level: error' }));
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await screenshotBothSchemes(page, 'inspector-search-suggestions');
    await input.press('ArrowDown');
    const highlighted = await input.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${highlighted}"]`).getAttribute('aria-label')).toBe('Level: error');
    await input.press('Enter');
    await visible(page.getByRole('button', { name: 'Remove Level: error' }));
    expect(await input.inputValue()).toBe('');
    await visible(statsText(page, 1, total));

    // Backspace on the empty input removes the last tag.
    await input.press('Backspace');
    await visible(statsText(page, total, total));
    expect(await page.getByRole('button', { name: 'Remove Level: error' }).count()).toBe(0);

    // Typed text filters at once; Enter commits it as a tag; Aa makes it case-sensitive.
    await input.pressSequentially('zebra');
    await visible(statsText(page, 2, total));
    await input.press('Enter');
    await visible(page.getByRole('button', { name: 'Remove zebra' }));
    expect(await input.inputValue()).toBe('');
    const caseSensitive = page.getByRole('button', { name: 'Case sensitive' });
    await caseSensitive.click();
    expect(await caseSensitive.getAttribute('aria-pressed')).toBe('true');
    await visible(statsText(page, 1, total));
    await caseSensitive.click();
    await visible(statsText(page, 2, total));
    await input.click();
    await input.press('Backspace');
    await visible(statsText(page, total, total));

    // A status code seen in the data, picked with the mouse, filters at its path.
    const code = String(stored.find((item) => item.type === 'network' && item.details.response?.statusCode !== undefined)!.status);
    const withCode = stored.filter((item) => item.type === 'network' && String(item.details.response?.statusCode ?? '').includes(code)).length;
    await input.pressSequentially(code);
    await suggestions.getByRole('option', { name: `Status Code: ${code}` }).click();
    await visible(page.getByRole('button', { name: `Remove Status Code: ${code}` }));
    await visible(statsText(page, withCode, total));
    await page.getByRole('button', { name: 'Clear search', exact: true }).click();
    await visible(statsText(page, total, total));

    // The date range opens on the last 3 days through now; a range in the past shows nothing; Reset.
    await page.getByRole('button', { name: 'Date range', exact: true }).click();
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    const span = minutesOf(await to.inputValue()) - minutesOf(await from.inputValue());
    expect(Math.abs(span - 3 * 24 * 60)).toBeLessThanOrEqual(60);
    await visible(statsText(page, total, total));
    await input.pressSequentially('zebra');
    await input.press('Enter');
    await visible(statsText(page, 2, total));
    await screenshotBothSchemes(page, 'inspector-search-date-range');
    await input.press('Backspace');
    await visible(statsText(page, total, total));
    await to.fill('2020-01-01T00:00');
    await visible(page.getByText('No Search Results'));
    await page.getByRole('button', { name: 'Reset date range' }).click();
    await visible(statsText(page, total, total));
    await page.getByRole('button', { name: 'Date range', exact: true }).click();
    expect(await from.count()).toBe(0);

    // Nothing found: Clear Search brings everything back.
    await input.pressSequentially('no-such-thing-anywhere');
    await visible(page.getByText('No Search Results'));
    await page.getByRole('button', { name: 'Clear Search', exact: true }).click();
    await visible(statsText(page, total, total));
    expect(await input.inputValue()).toBe('');

    // The console lists the items oldest first.
    await page.getByRole('button', { name: 'Console view' }).click();
    const lines = page.locator('.console-line');
    await expect.poll(() => lines.count()).toBe(total);
    const shownIds = await lines.evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { id: string } }).dataset.id));
    const createdAt = new Map(stored.map((item) => [item.id, Date.parse(item.createdAt)]));
    const times = shownIds.map((id) => createdAt.get(id)!);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // It follows the bottom while new items stream in.
    for (let i = 0; i < 60; i++) device.client.log(`Console line ${i}`);
    await simulator.flush();
    await visible(page.locator('.console-line', { hasText: 'Console line 59' }));
    await expect.poll(() => atBottom(page)).toBe(true);

    // Scrolled up, it stays put, and newer requests show as 'N requests below'.
    await consoleRows(page).hover();
    await page.mouse.wheel(0, -900);
    await expect.poll(() => atBottom(page)).toBe(false);
    const toast = page.getByRole('button', { name: /^\d+ requests below$/ });
    expect(await toast.count()).toBe(0);
    for (let i = 0; i < 5; i++) device.client.log(`Late line ${i}`);
    await simulator.flush();
    await visible(toast);
    const below = Number(/^(\d+)/.exec(await toast.innerText())![1]);
    expect(below).toBeGreaterThanOrEqual(5);
    expect(await atBottom(page)).toBe(false);
    await screenshotViewport(page, 'inspector-console');

    // The toast takes the reader down, and the console follows again.
    await toast.click();
    await expect.poll(() => atBottom(page)).toBe(true);
    expect(await toast.count()).toBe(0);
    device.client.log('After following again');
    await simulator.flush();
    await visible(page.locator('.console-line', { hasText: 'After following again' }));
    await expect.poll(() => atBottom(page)).toBe(true);

    // A click selects the line in the store the table and the details panel share.
    const line = page.locator('.console-line', { hasText: 'Late line 4' });
    await line.click();
    expect(await line.getAttribute('aria-selected')).toBe('true');
    await visible(page.getByText(`Selected 1 of ${total + 66} requests (Total: ${total + 66})`));

    // Arrow keys move the selection; the console keeps the selected line in view.
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowUp');
    const selectedLine = page.locator('.console-line[aria-selected="true"]');
    await visible(selectedLine.filter({ hasText: 'Console line 24' }));
    const box = (await consoleRows(page).boundingBox())!;
    const lineBox = (await selectedLine.boundingBox())!;
    expect(lineBox.y).toBeGreaterThanOrEqual(box.y - 1);
    expect(lineBox.y + lineBox.height).toBeLessThanOrEqual(box.y + box.height + 1);

    expect(errors).toEqual([]);
  });
});
