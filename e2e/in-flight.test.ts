import type http from 'node:http';
import { RequestsPage, type CapturedItem } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, signUpByApi, type TestAccount } from './support/accounts';
import { newContext, recordPageErrors } from './support/browser';
import { serveBrowserSdk } from './support/browser-sdk';
import { useE2eEnvironment } from './support/environment';
import { details } from './support/inspector';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';
import { callApi } from './support/sdk-package';
import { nodeHttpGet } from '../apps/server/test/support/node-http-get';

/**
 * Issue 13, acceptance 4: a request the app's backend answers only after 2 s shows in the table
 * while it waits, with a running timer, then turns into the completed request in place — through
 * each capture path: fetch and XMLHttpRequest in a browser app, node:http and undici in a Node app.
 */

const SLOW_MS = 2000;

/** The app's backend: /slow answers after SLOW_MS. */
function slowBackend(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (pathname !== '/slow') return false;
  setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answered: req.url })), SLOW_MS);
  return true;
}

describe('requests in flight', () => {
  const env = useE2eEnvironment();
  let site: Awaited<ReturnType<typeof serveBrowserSdk>>;
  let account: TestAccount;
  let app: Page;
  let browserDevice: string;
  let nodeDevice: SpyglassClient;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    site = await serveBrowserSdk({ title: 'Slow shop', backend: slowBackend });
    account = await signUpByApi(env.server);
    // The browser app: the SDK captures the page's fetch and XMLHttpRequest.
    const appContext = await newContext(env.browser, site.url);
    contexts.push(appContext);
    app = await appContext.newPage();
    await app.goto('/');
    browserDevice = await app.evaluate(`(async () => {
      const { createSpyglass } = await import('/sdk/browser.js');
      window.spyglass = createSpyglass({ serverUrl: ${JSON.stringify(env.server.url)}, apiKey: ${JSON.stringify(account.profile.apiKey)}, flushIntervalMs: 5 });
      await new Promise((resolve) => window.spyglass.on('welcome', resolve));
      return window.spyglass.deviceId;
    })()`) as string;
    // The Node app: this process, its node:http and undici requests captured.
    nodeDevice = createSpyglass({
      serverUrl: env.server.url, apiKey: account.profile.apiKey, installId: `e2e-in-flight-${process.pid}-${Date.now()}`,
      capture: { fetch: false, xhr: false, http: true }, flushIntervalMs: 5,
    });
    await new Promise<void>((resolve) => nodeDevice.on('welcome', () => resolve()));
  });
  afterAll(async () => {
    await nodeDevice?.stop();
    for (const context of contexts) await context.close();
    await site?.close();
  });

  /** The device's requests, with the Duration column shown (it is hidden by default, spec 001 §3). */
  async function dashboard(deviceId: string): Promise<{ page: Page; errors: string[] }> {
    const { context, page } = await signedInContext(env.browser, env.server, account);
    contexts.push(context);
    const errors = recordPageErrors(page);
    await page.goto(`/devices/${deviceId}`);
    await (await visible(page.getByRole('button', { name: 'Columns' }))).click();
    const duration = await visible(page.getByRole('menuitemcheckbox', { name: 'Duration' }));
    if ((await duration.getAttribute('aria-checked')) === 'true') await page.keyboard.press('Escape');
    else {
      await duration.click();
      await page.keyboard.press('Escape');
    }
    return { page, errors };
  }

  const paths: { name: string; device: () => string; send: (url: string) => Promise<unknown> }[] = [
    { name: 'fetch', device: () => browserDevice, send: (url) => app.evaluate(`fetch(${JSON.stringify(url)}).then((r) => r.text())`) },
    {
      name: 'xhr', device: () => browserDevice,
      send: (url) => app.evaluate(`new Promise((resolve) => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(url)}); x.onloadend = () => resolve(x.responseText); x.send(); })`),
    },
    { name: 'node-http', device: () => nodeDevice.deviceId!, send: (url) => nodeHttpGet(url) },
    { name: 'undici', device: () => nodeDevice.deviceId!, send: async (url) => (await (await import('undici')).request(url)).body.text() },
  ];

  it.each(paths)('shows a request through $name while it waits, with a running timer, then completes it in place', async ({ name, device, send }) => {
    const { page, errors } = await dashboard(device());
    const url = `${site.url}/slow?via=${name}`;
    const answered = send(url);
    const row = page.locator('.req-row', { hasText: `via=${name}` });
    // The timer runs in the status pill and in the Duration cell.
    const timer = row.locator('.req-td-duration .req-waiting');
    const first = await (await visible(timer)).innerText();
    expect(first).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    expect(await row.locator('.req-status-pill .req-waiting').count()).toBe(1);
    await expect.poll(() => timer.innerText(), { timeout: 1500 }).not.toBe(first);
    if (name === 'fetch') await screenshotBothSchemes(page, 'requests-in-flight');

    expect(JSON.parse(await answered as string)).toEqual({ answered: `/slow?via=${name}` });
    // The same row now holds the answer: status, and the duration where the timer ran.
    await expect.poll(() => row.locator('.req-status-pill').innerText(), { timeout: 10_000 }).toBe('200');
    expect(await row.locator('.req-waiting').count()).toBe(0);
    expect(await row.locator('.req-td-duration').innerText()).toMatch(/^2(\.\d+)? s$/);
    expect(await page.locator('.req-row', { hasText: `via=${name}` }).count()).toBe(1);

    // Stored once, in its completed version.
    const listed = RequestsPage.parse(await callApi(env.server.url, account.token, 'GET', `/v1/requests?deviceId=${encodeURIComponent(device())}&limit=100`)).items
      .filter((i) => i.url === url);
    expect(listed).toHaveLength(1);
    const stored = await callApi<CapturedItem>(env.server.url, account.token, 'GET', `/v1/requests/${listed[0]!.id}`);
    expect(stored).toMatchObject({ status: 200, details: { response: { statusCode: 200, body: JSON.stringify({ answered: `/slow?via=${name}` }) } } });
    expect(errors).toEqual([]);
  });

  it('fills in the details panel opened while the request waited once its answer arrives', async () => {
    const { page, errors } = await dashboard(browserDevice);
    const url = `${site.url}/slow?via=details`;
    const answered = app.evaluate(`fetch(${JSON.stringify(url)}).then((r) => r.text())`);
    const row = page.locator('.req-row', { hasText: 'via=details' });
    await visible(row.locator('.req-waiting'));
    await row.click();
    const panel = details(page);
    await visible(panel.locator('.details-title', { hasText: 'via=details' }));
    // Waiting, not failed: the panel says so with the request's timer.
    const waiting = panel.locator('.details-waiting');
    await visible(waiting);
    await expect.poll(() => waiting.innerText()).toMatch(/^Waiting for the response… \d/);
    expect(await panel.getByText('No response', { exact: true }).count()).toBe(0);
    await screenshotBothSchemes(page, 'details-waiting-for-response');

    await answered;
    // The row turns into the answered request; the panel opened on it must follow, not keep waiting.
    await expect.poll(() => row.locator('.req-status-pill').innerText(), { timeout: 10_000 }).toBe('200');
    await visible(panel.getByText('200 OK', { exact: true }));
    // The response body, a JSON string in the tree: {"answered": "/slow?via=details"}.
    await visible(panel.getByText('"/slow?via=details"', { exact: true }));
    expect(await panel.locator('.details-waiting').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
