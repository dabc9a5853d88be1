import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';

/** The stats bar's total: items the device has stored, which grows while the simulator streams. */
async function total(page: Page): Promise<number> {
  const text = await page.locator('.inspector-stats-text').innerText();
  return Number(/\(Total: (\d+)\)/.exec(text)?.[1] ?? NaN);
}

/** Ids of the items whose details the page fetched, in order. */
function detailsFetched(page: Page): string[] {
  const ids: string[] = [];
  page.on('request', (request) => {
    const match = /\/v1\/requests\/([^/?]+)$/.exec(new URL(request.url()).pathname);
    if (match && request.method() === 'GET') ids.push(decodeURIComponent(match[1]!));
  });
  return ids;
}

const selectedId = (page: Page) => page.locator('.req-row.is-selected').getAttribute('data-item-id');

describe('request list: the selection under live traffic', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('keeps an older request selected while new ones arrive, and follows them from the newest', async () => {
    const { page, errors, deviceId, device, simulator } = await fixtures.signedInWithDevice({ simulator: { platforms: ['ios'], seed: 21 } });
    const request = (n: number) => device.client.fetch(`${simulator.backendUrl}/api/products/${n}`).then((res) => res.arrayBuffer());
    for (let n = 0; n < 10; n++) await request(n);
    const fetched = detailsFetched(page);
    await page.goto(`/devices/${deviceId}`);
    const rows = page.locator('.req-row');
    await expect.poll(() => rows.count()).toBe(10);

    // An older request selected (rows still: a click on a row sliding down can miss it), then live
    // traffic, several requests a second: neither the selection nor the details move.
    const older = (await rows.nth(4).getAttribute('data-item-id'))!;
    await page.locator(`.req-row[data-item-id="${older}"]`).click();
    await expect.poll(() => fetched.at(-1)).toBe(older);
    let streaming = true;
    let sent = 10;
    const stream = (async () => {
      for (let n = 100; streaming; n++, sent++) {
        await request(n);
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    })();
    try {
      const before = await total(page);
      await expect.poll(() => total(page), { timeout: 20_000 }).toBeGreaterThan(before + 5);
      expect(fetched.filter((id) => id !== older)).toEqual([]);
      await visible(page.locator(`.req-row[data-item-id="${older}"].is-selected`));
    } finally {
      streaming = false;
      await stream;
    }

    // The newest request selected: the next one takes the selection and the details (spec 001 §4).
    const settled = sent;
    await expect.poll(() => total(page)).toBe(settled);
    const newest = (await rows.first().getAttribute('data-item-id'))!;
    await page.locator(`.req-row[data-item-id="${newest}"]`).click();
    await expect.poll(() => fetched.at(-1)).toBe(newest);
    await request(999);
    await expect.poll(() => total(page)).toBe(settled + 1);
    const arrived = (await rows.first().getAttribute('data-item-id'))!;
    expect(arrived).not.toBe(newest);
    await expect.poll(() => selectedId(page)).toBe(arrived);
    await expect.poll(() => fetched.at(-1)).toBe(arrived);
    expect(errors).toEqual([]);
  });
});
