import { REQUESTS_PAGE_DEFAULT, Session, SessionItemsPage } from '@spyglass/protocol';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from './support/accounts';
import { apiHeaders, storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import type { RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';
import { seedItems } from './support/seed-items';

/** More than the list's first page, so most of the device's items are not in the browser when Save is clicked. */
const N = REQUESTS_PAGE_DEFAULT * 2 + 500;

/** The ids a saved session holds. */
async function sessionItemIds(server: RunningServer, account: TestAccount, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after: number | null = 0; after !== null;) {
    const res = await fetch(`${server.url}/v1/sessions/${sessionId}/items?after=${after}&limit=5000`, { headers: apiHeaders(account.token) });
    const page = SessionItemsPage.parse(await res.json());
    ids.push(...page.items.map((item) => item.id));
    after = page.nextAfter;
  }
  return ids;
}

const stats = (page: Page) => page.locator('.inspector-stats-text');
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save session' });
const filterButton = (page: Page, name: string) => page.getByRole('group', { name: 'Filter by type' }).getByRole('button', { name });

/** The answer of the next POST /v1/sessions (a save that loads pages first may take a while on a loaded machine). */
const sessionSaved = (page: Page) => page.waitForResponse(
  (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/sessions',
  { timeout: 60_000 },
);
/**
 * Holds the list's requests for older pages (`before`) until `release()`: the state while the
 * rest of the history loads stays on screen for as long as the test looks at it.
 */
async function holdOlderPages(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isOlderPage = (url: URL) => url.pathname === '/v1/requests' && url.searchParams.has('before');
  const handler = async (route: Route) => {
    await released;
    await route.continue();
  };
  // Left in place once released (it then lets every page through): unrouting while a held
  // request is being continued races with Playwright's own fallback.
  await page.route(isOlderPage, handler);
  return { release };
}

/** The new-user trial's bug: Save Session saved only the items the browser had loaded, and Total counted only those. */
describe('saving a device whose history is not all loaded', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  /** A device with the device's whole history on the server, connected again. */
  async function deviceWithItems(account: TestAccount, count: number, seed: number) {
    const { simulator, deviceId } = await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['ios'], seed });
    // The server's database is written by this test only while no device is connected.
    await simulator.stop();
    await seedItems(env.server, account.profile.id, deviceId, count);
    return fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['ios'], seed });
  }

  it('shows the device\'s total at once and saves every item the list shows, loading the rest first', { timeout: 180_000 }, async () => {
    const { account, page, errors } = await fixtures.signedInUser();
    const { simulator, device, deviceId } = await deviceWithItems(account, N, 7);
    await page.goto(`/devices/${deviceId}`);

    // Total is the device's count while only the first page is in the browser, and follows live items.
    await visible(stats(page).getByText(`Requests: ${REQUESTS_PAGE_DEFAULT} (Total: ${N})`));
    await device.act('log');
    await simulator.flush();
    await visible(stats(page).getByText(`Requests: ${REQUESTS_PAGE_DEFAULT + 1} (Total: ${N + 1})`));
    const stored = await storedItems(env.server, account.token, deviceId);
    expect(stored).toHaveLength(N + 1);
    await screenshotBothSchemes(page, 'save-session-total');

    // With a filter: the session holds every log of the device, loaded or not.
    await filterButton(page, 'Logs').click();
    const isLog = (item: { type: string }) => item.type === 'log';
    const logs = stored.filter(isLog).map((item) => item.id);
    // Newest first: the browser holds the first page and the live item.
    expect(logs.length).toBeGreaterThan(stored.slice(0, REQUESTS_PAGE_DEFAULT + 1).filter(isLog).length);
    const held = await holdOlderPages(page);
    await saveButton(page).click();
    // While the rest loads: the button is busy and a toast counts the loaded items, with Cancel.
    await visible(page.getByText(`Loading requests... ${(REQUESTS_PAGE_DEFAULT + 1).toLocaleString('en-US')} of ${(N + 1).toLocaleString('en-US')}`));
    expect(await saveButton(page).getAttribute('aria-busy')).toBe('true');
    expect(await saveButton(page).isDisabled()).toBe(true);
    await visible(page.getByRole('button', { name: 'Cancel' }));
    await screenshotBothSchemes(page, 'save-session-loading');
    const [saved] = await Promise.all([sessionSaved(page), held.release()]);
    expect(saved.status()).toBe(201);
    const filteredSession = Session.parse(await saved.json());
    await visible(page.getByText('Session saved'));
    expect((await sessionItemIds(env.server, account, filteredSession.id)).sort()).toEqual(logs.sort());
    await visible(stats(page).getByText(`Requests: ${logs.length} (Total: ${N + 1})`));

    // Without a filter (a setting kept by the server), from a fresh page: every item of the device.
    expect((await answerOf(page, 'POST', '/user/settings', () => filterButton(page, 'All').click())).status()).toBe(200);
    await page.reload();
    await visible(page.getByRole('group', { name: 'Filter by type' }).getByRole('button', { name: 'All', pressed: true }));
    await visible(stats(page).getByText(`Requests: ${REQUESTS_PAGE_DEFAULT} (Total: ${N + 1})`));
    const [whole] = await Promise.all([sessionSaved(page), saveButton(page).click()]);
    expect(whole.status()).toBe(201);
    const session = Session.parse(await whole.json());
    expect(session.metaData.requests).toBe(N + 1);
    expect((await sessionItemIds(env.server, account, session.id)).sort()).toEqual(stored.map((item) => item.id).sort());
    await visible(page.getByText('Session saved'));
    await visible(stats(page).getByText(`Requests: ${N + 1} (Total: ${N + 1})`));
    expect(await saveButton(page).isDisabled()).toBe(false);

    // Cleared, the device has nothing to save.
    await page.getByRole('button', { name: 'Clear requests' }).click();
    await visible(page.getByText('Requests cleared'));
    await saveButton(page).click();
    await visible(page.getByText('No requests to save'));
    expect(errors).toEqual([]);
  });
});
