import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, type DeviceItem } from '@spyglass/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { generateItems } from '../packages/protocol/src/item-fixtures';
import { FileBlobStore } from '../apps/server/src/blobs/file-blob-store';
import { prepareRows } from '../apps/server/src/ingest/item-rows';
import { insertNewItems, updateLastNum } from '../apps/server/src/repositories/items.repository';
import { startSimulator, type Simulator } from '../apps/simulator/src';
import { signedInContext, signUpByApi } from './support/accounts';
import { recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';
import { openServerDatabase, type RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

const N = 100_000;

/**
 * Stores N items for a device the simulator registered, through the ingest's own row preparation
 * and the items repository (sending 100,000 items through a phone's socket would take minutes on
 * a shared machine), numbered 1 (oldest) to N as the ingest numbers them.
 */
async function seedItems(server: RunningServer, userId: string, deviceId: string): Promise<string[]> {
  const handle = await openServerDatabase(server);
  try {
    const deviceItems: DeviceItem[] = generateItems(N).map((item) => ({
      id: `${item.id}-${item.num}`, type: item.type, createdAt: item.createdAt, ...(item.level ? { level: item.level } : {}), details: item.details,
    }) as DeviceItem);
    const { rows } = prepareRows(deviceItems, { userId, deviceId, blobs: new FileBlobStore(server.dataDir), receivedAt: Date.now(), keepParsed: false });
    for (let i = 0; i < rows.length; i += 1000) {
      await insertNewItems(handle.db, rows.slice(i, i + 1000).map((row, j) => ({ ...row.columns, num: i + j + 1 }))).execute();
    }
    await updateLastNum(handle.db, userId, deviceId, N).execute();
    return deviceItems.map((item) => item.id);
  } finally {
    await handle.close();
  }
}

const rowNums = (page: Page) => page.locator('.req-row .req-td-id').allInnerTexts().then((texts) => texts.map(Number));
const loading = (page: Page) => page.locator('.session-streaming', { hasText: 'Loading session...' });

/** Issue 15: a saved session of 100,000 items opens at once and streams the rest in. */
describe('a large session', () => {
  const env = useE2eEnvironment();
  let context: BrowserContext | undefined;
  let simulator: Simulator | undefined;

  afterEach(async () => {
    await simulator?.stop();
    simulator = undefined;
    await context?.close();
    context = undefined;
  });

  it('opens a 100k-item session and scrolls it before it finished loading', { timeout: 300_000 }, async () => {
    const account = await signUpByApi(env.server);
    simulator = await startSimulator({ serverUrl: env.server.url, apiKey: account.profile.apiKey, devices: 1, rate: 0, platforms: ['ios'], seed: 100 });
    await simulator.connected();
    const deviceId = simulator.devices[0]!.installId;
    await simulator.stop();
    simulator = undefined;
    const ids = await seedItems(env.server, account.profile.id, deviceId);

    const headers = {
      authorization: `Bearer ${account.token}`, 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
    };
    const saved = await fetch(`${env.server.url}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ deviceId, name: 'Big session', requestIds: ids }) });
    expect(saved.status).toBe(201);
    const session = (await saved.json()) as { id: string };

    ({ context } = await signedInContext(env.browser, env.server, account));
    const page = await context.newPage();
    const errors = recordPageErrors(page);
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
