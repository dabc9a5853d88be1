import type { CompactItem } from '@spyglass/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

const statsText = (page: Page, shown: number, total: number) => page.getByText(`Requests: ${shown} (Total: ${total})`, { exact: true });
/** The stats bar's 'Requests: N (Total: M)' as numbers. */
async function stats(page: Page): Promise<{ shown: number; total: number }> {
  const text = await page.getByText(/^Requests: \d+ \(Total: \d+\)$/).innerText();
  const [, shown, total] = /^Requests: (\d+) \(Total: (\d+)\)$/.exec(text)!;
  return { shown: Number(shown), total: Number(total) };
}
const shownIds = (page: Page) => page.locator('.req-row').evaluateAll((rows) => rows.map((row) => (row as unknown as { dataset: { itemId: string } }).dataset.itemId));

/** What `url:/api/health` must let through: requests only, whatever the host and the query. */
const healthCheck = (item: CompactItem) => item.type === 'network' && item.details.request.url.toLowerCase().includes('/api/health');

/** What `status-code:404 -method:GET` must let through, written out apart from the filter code. */
const notFoundNotGet = (item: CompactItem) => item.type === 'network' && item.details.response?.statusCode === 404 && item.details.request.method !== 'GET';

/** Issue 15: power filters in the search bar, with the simulator streaming into a real server. */
describe('request inspector: power filters', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('typing status-code:404 -method:GET filters the live list while the simulator streams', async () => {
    const { account, page, errors, simulator, device, deviceId } = await fixtures.signedInWithDevice({ simulator: { rate: 8, platforms: ['ios'], seed: 15 } });
    // Calls to routes the backend does not know answer 404, whatever their method: the app makes
    // them through the SDK like any other request.
    const missing = (method: string, path: string) => device.client.fetch(`${simulator.backendUrl}${path}`, { method }).then((res) => res.arrayBuffer());
    await Promise.all([missing('POST', '/api/wishlist'), missing('DELETE', '/api/wishlist/3'), missing('GET', '/api/nowhere'), missing('PATCH', '/api/cart')]);

    await page.goto(`/devices/${deviceId}`);
    await visible(page.locator('.req-row').first());

    const input = page.getByRole('combobox', { name: 'Search' });
    await input.click();
    await input.pressSequentially('status-code:404 -method:GET');
    // Only the three non-GET 404s so far.
    await expect.poll(async () => (await shownIds(page)).length).toBe(3);
    // The simulator keeps streaming behind the filter: the list takes its requests in (the total
    // grows) and shows none of them.
    const filtered = await stats(page);
    expect(filtered.shown).toBe(3);
    await expect.poll(async () => (await stats(page)).total).toBeGreaterThan(filtered.total + 5);
    expect((await stats(page)).shown).toBe(3);
    expect(await shownIds(page)).toHaveLength(3);

    // New matching requests show up live; others stay out.
    await Promise.all([missing('PUT', '/api/wishlist/9'), missing('GET', '/api/nowhere/else')]);
    await expect.poll(async () => (await shownIds(page)).length).toBe(4);
    await simulator.stop();
    const stored = await storedItems(env.server, account.token, deviceId);
    const expected = stored.filter(notFoundNotGet);
    expect(expected).toHaveLength(4);
    expect(stored.some((item) => item.type === 'network' && item.details.response?.statusCode === 404 && item.details.request.method === 'GET')).toBe(true);
    await visible(statsText(page, expected.length, stored.length));
    expect(new Set(await shownIds(page))).toEqual(new Set(expected.map((item) => item.id)));

    // Enter commits each filter as a tag; the result stays the same.
    await input.press('Enter');
    await visible(page.getByRole('button', { name: 'Remove status-code:404' }));
    await visible(page.getByRole('button', { name: 'Remove -method:GET' }));
    expect(await input.inputValue()).toBe('');
    await visible(statsText(page, expected.length, stored.length));

    // A value that cannot be read is shown as an invalid tag and filters nothing.
    await input.pressSequentially('is:broken');
    await input.press('Enter');
    await visible(page.getByRole('img', { name: 'Invalid filter: is: takes mocked or pending' }));
    await visible(statsText(page, expected.length, stored.length));

    // The dropdown offers the keys, then the values seen for a key.
    await input.pressSequentially('dur');
    await visible(page.getByRole('option', { name: 'duration:' }));
    await input.fill('');
    await input.pressSequentially('mime-type:');
    await visible(page.getByRole('option', { name: 'mime-type:application/json' }));
    await screenshotBothSchemes(page, 'inspector-power-filters');
    await input.press('Escape');
    await input.fill('');

    // The help lists the filters.
    await page.getByRole('button', { name: 'Search filters' }).click();
    const help = page.getByRole('dialog', { name: 'Search filters' });
    await visible(help.getByText('domain:*.example.com'));
    await visible(help.getByText('A leading - excludes what the filter matches'));
    await screenshotBothSchemes(page, 'inspector-power-filters-help');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.isVisible()).toBe(false);

    // Existing field tags keep working beside them: removing the filters brings the 404s of GET back.
    // At rest the field shows the tags that fit and '+N'; focused, all of them.
    await input.click();
    await page.getByRole('button', { name: 'Remove -method:GET' }).click();
    await visible(statsText(page, stored.filter((item) => item.type === 'network' && item.details.response?.statusCode === 404).length, stored.length));
    expect(errors).toEqual([]);
  });
  it('url:/api/health keeps the requests whose URL holds it while the simulator streams; an unknown key is searched as text', async () => {
    const { account, page, errors, simulator, device, deviceId } = await fixtures.signedInWithDevice({ simulator: { rate: 8, platforms: ['ios'], seed: 16 } });
    const health = (query = '') => device.client.fetch(`${simulator.backendUrl}/api/health${query}`).then((res) => res.arrayBuffer());
    await Promise.all([health(), health('?probe=1'), health()]);
    // Text that names the path but is no request: url: leaves it out, free text would not.
    device.client.log('Polling /api/health every 30 s');

    await page.goto(`/devices/${deviceId}`);
    await visible(page.locator('.req-row').first());
    const input = page.getByRole('combobox', { name: 'Search' });
    await input.click();
    await input.pressSequentially('url:/api/h');
    await visible(page.getByRole('option', { name: 'url:/api/health' }));
    await input.pressSequentially('ealth');
    await input.press('Enter');
    await visible(page.getByRole('button', { name: 'Remove url:/api/health' }));
    await expect.poll(async () => (await stats(page)).shown).toBeGreaterThanOrEqual(3);
    const first = await stats(page);
    // The simulator streams on behind the filter; new health checks come in, the rest stays out.
    await expect.poll(async () => (await stats(page)).total).toBeGreaterThan(first.total + 5);
    await health('?probe=2');
    await expect.poll(async () => (await stats(page)).shown).toBeGreaterThan(first.shown);
    await simulator.stop();
    const stored = await storedItems(env.server, account.token, deviceId);
    const expected = stored.filter(healthCheck);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(stored.some((item) => item.type === 'log' && item.details.message.includes('/api/health'))).toBe(true);
    await visible(statsText(page, expected.length, stored.length));
    expect(new Set(await shownIds(page))).toEqual(new Set(expected.map((item) => item.id)));
    await screenshotBothSchemes(page, 'inspector-power-filters-url');

    // A key that names no filter is searched as text (here it finds nothing) and the tag says so.
    await page.getByRole('button', { name: 'Remove url:/api/health' }).click();
    await input.pressSequentially('host:127.0.0.1');
    await input.press('Enter');
    const tag = page.getByRole('list', { name: 'Search tags' }).getByRole('listitem').filter({ hasText: 'host:127.0.0.1' });
    expect(await tag.getAttribute('title')).toBe('host:127.0.0.1\nSearched as text: host: is not a filter (see Search filters)');
    await visible(statsText(page, 0, stored.length));

    // The help lists url:.
    await page.getByRole('button', { name: 'Search filters' }).click();
    const help = page.getByRole('dialog', { name: 'Search filters' });
    await visible(help.getByText('url:/api/health'));
    await visible(help.getByText('Part of the URL; * matches any part'));
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
