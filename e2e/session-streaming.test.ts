import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiHeaders } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';
import { seedItems } from './support/seed-items';

const N = 100_000;

const rowNums = (page: Page) => page.locator('.req-row .req-td-id').allInnerTexts().then((texts) => texts.map(Number));
const loading = (page: Page) => page.locator('.session-streaming', { hasText: 'Loading session...' });

/** Issue 15: a saved session of 100,000 items opens at once and streams the rest in. */
describe('a large session', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('opens a 100k-item session and scrolls it before it finished loading', { timeout: 300_000 }, async () => {
    const { account, context, page, errors } = await fixtures.signedInUser();
    const { simulator, deviceId } = await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['ios'], seed: 100 });
    // The server's database is written by this test only while no device is connected.
    await simulator.stop();
    const ids = await seedItems(env.server, account.profile.id, deviceId, N);

    const headers = { ...apiHeaders(account.token), 'content-type': 'application/json' };
    const saved = await fetch(`${env.server.url}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ deviceId, name: 'Big session', requestIds: ids }) });
    expect(saved.status).toBe(201);
    const session = (await saved.json()) as { id: string };

    // A slow connection (300 ms a round trip) makes the stream last long enough to act during it.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 300, downloadThroughput: -1, uploadThroughput: -1 });

    await page.goto('/sessions');
    await visible(page.getByRole('link', { name: 'Big session' }));
    const t0 = Date.now();
    await page.getByRole('link', { name: 'Big session' }).click();
    await visible(page.locator('.req-row').first());
    const firstRowsMs = Date.now() - t0;
    // The first rows are on screen while the rest still stream in.
    await visible(loading(page));
    const progress = await loading(page).innerText();
    expect(progress).toMatch(/^Loading session\.\.\. [\d,]+ of 100,000$/);
    console.log(`100k session: first rows after ${firstRowsMs} ms (300 ms added per round trip), then '${progress}'`);

    // Numbering holds while loading: every row shows its own number, and the time slider is there.
    const first = await rowNums(page);
    expect(first.length).toBeGreaterThan(5);
    expect(first.every((num) => num >= 1 && num <= N)).toBe(true);
    await visible(page.getByRole('slider', { name: 'End of the time range' }));
    const endBefore = await page.getByRole('slider', { name: 'End of the time range' }).getAttribute('aria-valuenow');

    // It scrolls while loading.
    await page.locator('.req-row').first().hover();
    await page.mouse.wheel(0, 4000);
    await expect.poll(async () => (await rowNums(page)).join(',')).not.toBe(first.join(','));
    expect(await loading(page).count()).toBe(1);
    await screenshotBothSchemes(page, 'session-streaming');

    // The slider's end follows the items as they arrive.
    await expect.poll(() => page.getByRole('slider', { name: 'End of the time range' }).getAttribute('aria-valuenow')).not.toBe(endBefore);

    // All of it in the end, numbered 1 to N.
    await visible(page.getByText(`Requests: ${N} (Total: ${N})`), 240_000);
    expect(await loading(page).count()).toBe(0);
    await page.locator('.req-row').first().hover();
    await page.mouse.wheel(0, -1e7);
    await expect.poll(async () => (await rowNums(page))[0]).toBe(N);
    expect(errors).toEqual([]);
    await cdp.detach();
    expect(session.id).not.toBe('');
  });
});
