import fs from 'node:fs';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage, type CapturedItem, type CompactItem } from '@spyglass/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../apps/simulator/src';
import { signedInContext, signUpByApi } from './support/accounts';
import { newContext, recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { answerOf, clipboardText, visible } from './support/page';
import type { RunningServer } from './support/server';
import { screenshotBothSchemes } from './support/screenshots';

async function storedItems(server: RunningServer, token: string, deviceId: string): Promise<CompactItem[]> {
  const headers = { authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD };
  const res = await fetch(`${server.url}/v1/requests?${new URLSearchParams({ deviceId, limit: '5000' }).toString()}`, { headers });
  return RequestsPage.parse(await res.json()).items;
}

const rows = (page: Page) => page.locator('.req-row');
const rowOfNum = (page: Page, num: number) => page.locator('.req-row').filter({ has: page.locator('.req-td-id', { hasText: new RegExp(`^${num}$`) }) });

/** Issue 6, acceptance 1: save a session, keep it complete, rename it, share it, read it signed out, unshare it. */
describe('sessions and public sharing', () => {
  const env = useE2eEnvironment();
  const contexts: BrowserContext[] = [];
  let simulator: Simulator | undefined;

  afterEach(async () => {
    await simulator?.stop();
    simulator = undefined;
    for (const context of contexts.splice(0)) await context.close();
  });

  it('saves the captured items as a session that outlives a clear, and shares it read-only until unshared', async () => {
    const account = await signUpByApi(env.server);
    const { context, page } = await signedInContext(env.browser, env.server, account, { acceptDownloads: true, permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(context);
    const errors = recordPageErrors(page);

    simulator = await startSimulator({ serverUrl: env.server.url, apiKey: account.profile.apiKey, devices: 1, rate: 0, platforms: ['android'], seed: 6 });
    await simulator.connected();
    const device = simulator.devices[0]!;
    const deviceId = device.installId;
    for (const kind of ['network', 'log', 'network', 'event', 'screenshot', 'network', 'log', 'network'] as const) await device.act(kind);
    await simulator.flush();
    const stored = await storedItems(env.server, account.token, deviceId);
    const n = stored.length;
    const network = stored.find((item) => item.type === 'network')!;
    const shot = stored.find((item) => item.type === 'screenshot')!;

    // Save from the device's request list: nothing selected, so every shown item.
    await page.goto(`/devices/${deviceId}`);
    await visible(page.getByText(`Requests: ${n} (Total: ${n})`));
    const saved = await answerOf(page, 'POST', '/sessions', () => page.getByRole('button', { name: 'Save session' }).click());
    expect(saved.status()).toBe(201);
    const session = (await saved.json()) as { id: string; name: string };
    expect(session.name).toMatch(/^Session \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await visible(page.getByText('Session saved'));

    // Clearing the device's live items leaves the session whole.
    await page.getByRole('button', { name: 'Clear requests' }).click();
    await visible(page.getByText('Requests cleared'));
    expect(await storedItems(env.server, account.token, deviceId)).toEqual([]);

    await page.goto('/sessions');
    await visible(page.getByRole('heading', { name: /Sessions/ }));
    await visible(page.getByRole('link', { name: session.name }));
    await visible(page.getByText(`${n} requests`));
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'sessions-list');
    await page.getByRole('link', { name: session.name }).click();
    await page.waitForURL(`**/sessions/${session.id}`);
    await visible(page.getByText(`Requests: ${n} (Total: ${n})`));
    await expect.poll(() => rows(page).count()).toBe(n);
    // Numbered oldest to newest, 1 to n; session views offer no row delete and no clear.
    expect((await page.locator('.req-td-id').allInnerTexts()).map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(await page.locator('.req-row-delete').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Clear requests' }).count()).toBe(0);
    // Details come from the session's own copy, the screenshot's image included.
    const shotNum = stored.filter((item) => item.num <= shot.num).length;
    await rowOfNum(page, shotNum).click();
    await visible(page.getByRole('region', { name: 'Details' }).getByRole('img'));
    await rowOfNum(page, stored.filter((item) => item.num <= network.num).length).click();
    const details = page.getByRole('region', { name: 'Details' });
    await visible(details.getByText(new URL(network.url!).pathname, { exact: false }));
    expect(await details.getByText('Enable Mock', { exact: false }).count()).toBe(0);
    // The time-range slider narrows the list to the requests inside it.
    const start = await visible(page.getByRole('slider', { name: 'Start of the time range' }));
    const track = (await page.locator('.time-range-track').boundingBox())!;
    const thumb = (await start.boundingBox())!;
    await page.mouse.move(thumb.x + thumb.width / 2, thumb.y + thumb.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width + 20, thumb.y + thumb.height / 2, { steps: 5 });
    await page.mouse.up();
    const latest = stored.reduce((a, b) => (Date.parse(b.createdAt) > Date.parse(a.createdAt) ? b : a));
    const atLatest = stored.filter((item) => item.createdAt === latest.createdAt).length;
    await visible(page.getByText(`Requests: ${atLatest} (Total: ${atLatest})`));
    await start.focus();
    await start.press('Home');
    await visible(page.getByText(`Requests: ${n} (Total: ${n})`));

    // Export from the session: its full items, bodies and the screenshot's image, a batch a call.
    const lookups: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith(`/v1/sessions/${session.id}/items/`)) lookups.push(`${request.method()} ${path.slice(`/v1/sessions/${session.id}/items/`.length)}`);
    });
    await rows(page).first().click();
    await page.keyboard.press('ControlOrMeta+a');
    await visible(page.getByText(`Selected ${n} of ${n} requests (Total: ${n})`));
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = await visible(page.getByRole('dialog', { name: 'Export' }));
    await exportDialog.getByRole('radio', { name: 'JSON' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), exportDialog.getByRole('button', { name: 'Export', exact: true }).click()]);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as CapturedItem[];
    expect(exported.map((item) => item.id).sort()).toEqual(stored.map((item) => item.id).sort());
    const exportedShot = exported.find((item) => item.id === shot.id)!;
    expect(exportedShot.type === 'screenshot' && (exportedShot.details.image ?? '').length > 0).toBe(true);
    expect(exported.filter((item) => item.type === 'network' && item.details.response?.body !== undefined).length).toBeGreaterThan(0);
    expect(new Set(lookups)).toEqual(new Set(['POST lookup']));

    // Rename by clicking the name.
    await page.getByRole('button', { name: session.name }).click();
    const nameInput = page.getByRole('textbox', { name: 'Session name' });
    await nameInput.fill('Checkout flow');
    const renamed = await answerOf(page, 'PUT', `/sessions/${session.id}`, () => nameInput.press('Enter'));
    expect(renamed.status()).toBe(200);
    await visible(page.getByText('Session updated!'));
    await visible(page.getByRole('heading', { name: 'Checkout flow' }));

    // Share: the modal shows the link of the share host, with a copy icon.
    const shareUrl = `${env.server.shareUrl}/shared-sessions/${session.id}`;
    // The switch's track lies over its (transparent) checkbox: users click the track.
    const shareSwitch = page.locator('label', { has: page.getByRole('switch', { name: 'Share Session' }) });
    const shared = await answerOf(page, 'PUT', `/sessions/${session.id}`, () => shareSwitch.click());
    expect(await shared.json()).toMatchObject({ isShared: true, shareUrl });
    const modal = page.getByRole('dialog', { name: 'Session shared' });
    await visible(modal);
    expect(await modal.getByRole('textbox', { name: 'Share link' }).inputValue()).toBe(shareUrl);
    await screenshotBothSchemes(page, 'session-share-modal');
    await modal.getByRole('button', { name: 'Copy share link' }).click();
    await visible(page.getByText('Copied to clipboard'));
    expect(await clipboardText(page)).toBe(shareUrl);
    await page.keyboard.press('Escape');
    await page.mouse.move(0, 0);
    await screenshotBothSchemes(page, 'session-view');

    // A colleague without an account opens the link in a fresh browser: read-only, nothing from /v1.
    const visitorContext = await newContext(env.browser, env.server.shareUrl, { permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(visitorContext);
    const visitor = await visitorContext.newPage();
    const visitorErrors = recordPageErrors(visitor);
    const calls: string[] = [];
    visitor.on('request', (request) => calls.push(new URL(request.url()).pathname));
    const sharePage = await visitor.goto(shareUrl);
    // The page runs under the share host's strict policy (violations would be page errors).
    expect(sharePage?.headers()['content-security-policy']).toContain("script-src 'self';");
    expect(sharePage?.headers()['x-frame-options']).toBe('DENY');
    await visible(visitor.getByRole('heading', { name: 'Checkout flow' }));
    await visible(visitor.getByText('Powered by Spyglass'));
    await visible(visitor.getByText(`Requests: ${n} (Total: ${n})`));
    await expect.poll(() => rows(visitor).count()).toBe(n);
    await rowOfNum(visitor, stored.filter((item) => item.num <= network.num).length).click();
    const publicDetails = visitor.getByRole('region', { name: 'Details' });
    await visible(publicDetails.getByText(new URL(network.url!).pathname, { exact: false }));
    // No control that writes: no share toggle, no rename, no save, no clear, no row delete, no mock.
    expect(await visitor.getByRole('switch').count()).toBe(0);
    expect(await visitor.locator('.session-name-button').count()).toBe(0);
    expect(await visitor.getByRole('button', { name: 'Save session' }).count()).toBe(0);
    expect(await visitor.getByRole('button', { name: 'Clear requests' }).count()).toBe(0);
    expect(await visitor.locator('.req-row-delete').count()).toBe(0);
    expect(await publicDetails.getByText('Enable Mock', { exact: false }).count()).toBe(0);
    // Copy as CURL works from the public copy of the item.
    await rowOfNum(visitor, stored.filter((item) => item.num <= network.num).length).click({ button: 'right' });
    await visitor.getByRole('menuitem', { name: 'Copy as CURL' }).click();
    await visible(visitor.getByText('Copied to clipboard'));
    expect(await clipboardText(visitor)).toContain(network.url!);
    expect(calls.filter((path) => path.startsWith('/v1') || path.startsWith('/ws'))).toEqual([]);
    await visitor.mouse.move(0, 0);
    await screenshotBothSchemes(visitor, 'session-public');

    // The dashboard's own /shared-sessions route shows the same view to a signed-out visitor.
    const dashboardVisitor = await visitorContext.newPage();
    const dashboardVisitorErrors = recordPageErrors(dashboardVisitor);
    const dashboardPage = await dashboardVisitor.goto(`${env.server.url}/shared-sessions/${session.id}`);
    // The dashboard's policy lets it read data.json from the share host, and nothing else foreign.
    expect(dashboardPage?.headers()['content-security-policy']).toContain(`connect-src 'self' ${new URL(env.server.shareUrl).origin};`);
    await visible(dashboardVisitor.getByRole('heading', { name: 'Checkout flow' }));
    await visible(dashboardVisitor.getByText(`Requests: ${n} (Total: ${n})`));
    expect(dashboardVisitorErrors).toEqual([]);
    await dashboardVisitor.close();

    // Unshare: the link answers the not-found text at once.
    const unshared = await answerOf(page, 'PUT', `/sessions/${session.id}`, () => shareSwitch.click());
    expect(await unshared.json()).toMatchObject({ isShared: false, shareUrl: null });
    await visitor.reload();
    await visible(visitor.getByText('Session not found or no longer publicly available'));
    expect(visitorErrors.filter((e) => !e.includes('404'))).toEqual([]);

    // Delete from the list.
    await page.goto('/sessions');
    await page.getByRole('link', { name: 'Checkout flow' }).hover();
    await page.getByRole('button', { name: 'Delete session' }).click();
    const deleted = await answerOf(page, 'DELETE', `/sessions/${session.id}`, () => page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click());
    expect(deleted.status()).toBe(200);
    await visible(page.getByText('Session deleted'));
    await visible(page.getByText('Open a device to record a session'));
    expect(errors).toEqual([]);

    // An unknown (or another account's) session.
    await page.goto('/sessions/no-such-session');
    await visible(page.getByText('Session not found'));
  });
});
