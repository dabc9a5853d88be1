import type { CompactItem } from '@spyglass/protocol';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fullItem, storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { details, openItem } from './support/inspector';
import { dragBy, localStorageItem, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/**
 * Markup a hostile app or server could put into captured data. If any of it ran, a dialog would
 * open or the marker would reach the console.
 */
const MARKER = 'XSS-EXECUTED';
const IMG = `<img src=x onerror="console.log('${MARKER}');alert(1)">`;
const SCRIPT = `<script>console.log('${MARKER}');alert(2)</script>`;
const HOSTILE_HTML = `<!doctype html><html><body><h1>Hostile page</h1>${IMG}${SCRIPT}<svg onload="alert(3)"></svg></body></html>`;

const urlOf = (item: CompactItem) => (item.type === 'network' ? item.details.request.url : '');
const tab = (panel: Locator, pane: 'Request' | 'Response', name: string) =>
  panel.getByRole('tablist', { name: pane }).getByRole('tab', { name, exact: true });

/** The details panel of the request inspector (spec 001 'Details panel'; issue 5 acceptance 1 and 2). */
describe('request details panel', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('shows JSON, image, log, screenshot, analytics and hostile items, and never runs captured markup', async () => {
    const { account, page } = await fixtures.signedInUser();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const consoleTexts: string[] = [];
    page.on('console', (message) => consoleTexts.push(message.text()));
    const uncaught: string[] = [];
    page.on('pageerror', (error) => uncaught.push(error.message));

    const { simulator, device } = await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['android'], seed: 5 });
    const { client } = device;
    const backend = simulator.backendUrl;

    const subscribed = new Promise<void>((resolve) => page.on('websocket', (ws) => ws.on('framesent', (frame) => {
      if (String(frame.payload).includes('"subscribe"') && String(frame.payload).includes(device.installId)) resolve();
    })));
    await page.goto(`/devices/${device.installId}`);
    await visible(page.getByText('No Requests yet'));
    await subscribed;

    // What the virtual app does: a JSON call, a large JSON call (kept in the blob store), an image,
    // a crash log with its stack trace, a screenshot, an analytics event, and hostile data in a
    // request's URL, headers and body, in a log and in an event.
    await client.fetch(`${backend}/api/products/7`).then((r) => r.arrayBuffer());
    await client.fetch(`${backend}/api/catalog/export`).then((r) => r.arrayBuffer());
    await client.fetch(`${backend}/images/hero.png`).then((r) => r.arrayBuffer());
    class CartService {
      checkout(): never {
        throw new TypeError("Cannot read properties of undefined (reading 'address')");
      }
    }
    let crash: Error;
    try {
      new CartService().checkout();
    } catch (error) {
      crash = error as Error;
    }
    client.log(`TypeError: ${crash!.message}`, { level: 'error', category: 'crash', stackTrace: crash!, metadata: { cartId: 'c_42' } });
    client.screenshot(device.app.screenshot());
    client.analyticsEvent('purchase', { transaction_id: 'T12345', value: 120, currency: 'EUR' }, { category: 'firebase' });
    const hostileUrl = `${backend}/api/echo?q=${encodeURIComponent(IMG)}&s=${encodeURIComponent(SCRIPT)}`;
    await client.fetch(hostileUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/html', 'x-hostile': IMG + SCRIPT },
      body: HOSTILE_HTML,
    }).then((r) => r.arrayBuffer());
    client.log(`${IMG}${SCRIPT}`, { level: 'warning', metadata: { html: SCRIPT } });
    client.event(IMG, { category: SCRIPT, properties: { payload: IMG } });
    await simulator.flush();

    const stored = await storedItems(env.server, account.token, device.installId);
    expect(stored).toHaveLength(9);
    const byUrl = (path: string) => stored.find((item) => urlOf(item).startsWith(`${backend}${path}`))!;
    const json = byUrl('/api/products/7');
    const large = byUrl('/api/catalog/export');
    const image = byUrl('/images/hero.png');
    const hostile = byUrl('/api/echo');
    const crashLog = stored.find((item) => item.type === 'log' && item.details.stackTrace?.length)!;
    const hostileLog = stored.find((item) => item.type === 'log' && item !== crashLog)!;
    const shot = stored.find((item) => item.type === 'screenshot')!;
    const analytics = stored.find((item) => item.type === 'firebaseAnalytics')!;
    const event = stored.find((item) => item.type === 'event')!;
    await visible(page.getByText('Requests: 9 (Total: 9)'));

    const panel = details(page);

    // A JSON response: method and URL, status with its text, the body as a JSON tree, Raw as text.
    await openItem(page, json);
    await visible(panel.getByText(`${backend}/api/products/7`));
    await visible(panel.getByText('200 OK'));
    const tree = panel.getByRole('tree', { name: 'Response body' });
    const jsonFull = await fullItem(env.server, account.token, json.id);
    if (jsonFull.type !== 'network') throw new Error('not a network item');
    const product = JSON.parse(jsonFull.details.response!.body!) as { name: string };
    await visible(tree.getByText('"name"'));
    await visible(tree.getByText(JSON.stringify(product.name)));
    await screenshotBothSchemes(page, 'details-network-json');
    await panel.getByRole('button', { name: 'Raw', exact: true }).click();
    await visible(panel.locator('pre').getByText('"currency": "EUR"', { exact: false }));
    await panel.getByRole('button', { name: 'Tree', exact: true }).click();
    // Timing bars in the response's Details tab: 2 px per ms, within the track.
    await tab(panel, 'Response', 'Details').click();
    const total = panel.locator('.timing-row[data-phase="total"] .timing-bar');
    await visible(total);
    const totalMs = jsonFull.details.timings!.total!;
    const [bar, track] = await Promise.all([total.boundingBox(), panel.locator('.timing-row[data-phase="total"] .timing-track').boundingBox()]);
    expect(bar!.width).toBeCloseTo(Math.min(track!.width, Math.max(1, totalMs * 2)), 0);
    await tab(panel, 'Response', 'Body').click();

    // A body over 10,000 characters, read back from the blob store: Large JSON, opened one level deep, 100 rows at a time.
    await openItem(page, large);
    await visible(panel.getByText('Large JSON'));
    await visible(panel.getByRole('button', { name: /^Show 100 more \(600 left\)$/ }));

    // An image: inline, enlarged in the media viewer, which closes with Escape and with ✕.
    await openItem(page, image);
    const inline = panel.getByRole('img', { name: /Response body of/ });
    await visible(inline);
    // The size under it is read from the decoded picture.
    await visible(panel.getByText('48 × 48'));
    expect((await inline.boundingBox())!.height).toBeLessThanOrEqual(300);
    await screenshotBothSchemes(page, 'details-network-image');
    await panel.getByRole('button', { name: 'Enlarge image' }).click();
    const viewer = page.getByRole('dialog');
    await visible(viewer.getByRole('img'));
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);
    // Escape closed only the viewer, not the panel.
    await visible(panel);
    await panel.getByRole('button', { name: 'Enlarge image' }).click();
    await visible(viewer.getByRole('img'));
    await screenshotBothSchemes(page, 'details-media-viewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => viewer.count()).toBe(0);

    // A log: message, metadata, stack trace as a table (Class, Method, File, Line, Native) and raw.
    await openItem(page, crashLog);
    await visible(panel.getByText("TypeError: Cannot read properties of undefined (reading 'address')").first());
    await visible(panel.getByRole('table', { name: 'Log metadata' }).getByText('c_42'));
    const stack = panel.getByRole('table', { name: 'Stack trace' });
    expect(await stack.locator('thead th').allTextContents()).toEqual(['Class', 'Method', 'File', 'Line', 'Native']);
    await visible(stack.getByText('CartService', { exact: false }));
    await screenshotBothSchemes(page, 'details-log');
    await panel.getByRole('button', { name: 'Raw', exact: true }).click();
    await visible(panel.locator('pre').getByText(/at .*checkout \(.*inspector-details\.test\.ts:\d+\)/));

    // A screenshot: image, Download, enlarge.
    await openItem(page, shot);
    await visible(panel.getByRole('img'));
    const download = panel.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('download')).toMatch(/\.png$/);
    await screenshotBothSchemes(page, 'details-screenshot');
    await panel.getByRole('button', { name: 'Enlarge', exact: true }).click();
    await visible(viewer.getByRole('img'));
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);

    // An analytics event: metadata table (id, category) and the payload as JSON.
    await openItem(page, analytics);
    const analyticsMeta = panel.getByRole('table', { name: 'Analytics metadata' });
    await visible(analyticsMeta.getByText(analytics.id));
    await visible(analyticsMeta.getByText('firebase'));
    await visible(panel.getByRole('tree', { name: 'Analytics payload' }).getByText('"T12345"'));
    await screenshotBothSchemes(page, 'details-analytics');

    // Issue 5, acceptance 2: markup in the URL, the headers and the body shows as text and runs nothing.
    await openItem(page, hostile);
    await visible(panel.getByText(urlOf(hostile)));
    await tab(panel, 'Request', 'Query').click();
    const query = panel.getByRole('table', { name: 'Query parameters' });
    await visible(query.getByText(IMG, { exact: true }));
    await visible(query.getByText(SCRIPT, { exact: true }));
    await tab(panel, 'Request', 'Headers').click();
    await visible(panel.getByRole('table', { name: 'Request headers' }).getByText(IMG + SCRIPT, { exact: true }));
    await tab(panel, 'Request', 'Body').click();
    await visible(panel.locator('pre').getByText(IMG, { exact: false }).first());
    await screenshotBothSchemes(page, 'details-hostile-source');
    // The rendered preview is a frame with every sandbox restriction and no scripts.
    await panel.getByRole('button', { name: 'Preview', exact: true }).click();
    const frame = panel.locator('iframe[title="HTML preview"]');
    await visible(frame);
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain('<h1>Hostile page</h1>');
    await visible(page.frameLocator('iframe[title="HTML preview"]').getByText('Hostile page'));
    await screenshotBothSchemes(page, 'details-hostile-preview');
    await panel.getByRole('button', { name: 'Source', exact: true }).click();
    await tab(panel, 'Response', 'Body').click();
    await visible(panel.getByText('404 Not Found'));

    // ...and in a log message, its metadata and an event's name.
    await openItem(page, hostileLog);
    await visible(panel.locator('pre').getByText(`${IMG}${SCRIPT}`, { exact: true }));
    await visible(panel.getByRole('table', { name: 'Log metadata' }).getByText(SCRIPT, { exact: true }));
    await openItem(page, event);
    await visible(panel.getByRole('tree', { name: 'Event details' }).getByText(JSON.stringify(IMG)).first());
    await screenshotBothSchemes(page, 'details-event');

    // Nothing of it became markup of the page, and nothing ran.
    expect(await page.locator('img[src="x"], svg[onload]').count()).toBe(0);
    expect(await page.evaluate<number>(`[...document.scripts].filter((s) => s.text.includes(${JSON.stringify(MARKER)})).length`)).toBe(0);
    expect(dialogs).toEqual([]);
    expect(consoleTexts.filter((text) => text.includes(MARKER))).toEqual([]);
    expect(uncaught).toEqual([]);

    // Tab choices are kept in local storage across a reload (spec 001 §9).
    await openItem(page, hostile);
    await tab(panel, 'Request', 'Headers').click();
    await tab(panel, 'Response', 'Details').click();
    await expect.poll(async () => JSON.parse((await localStorageItem(page, 'details-panel')) ?? '{}') as unknown)
      .toMatchObject({ requestTab: 'Headers', responseTab: 'Details' });
    await page.reload();
    await openItem(page, hostile);
    expect(await tab(panel, 'Request', 'Headers').getAttribute('aria-selected')).toBe('true');
    expect(await tab(panel, 'Response', 'Details').getAttribute('aria-selected')).toBe('true');
    await visible(panel.getByRole('table', { name: 'Request headers' }).getByText(IMG + SCRIPT, { exact: true }));
    await visible(panel.getByRole('table', { name: 'Response details' }).getByText('404 Not Found'));

    // Height: dragging resizes within 100 px and 80 % of the content area; expand switches to the maximum and back.
    const area = (await page.locator('.inspector-content').boundingBox())!;
    const before = (await panel.boundingBox())!.height;
    const handle = panel.getByRole('separator', { name: 'Resize details panel' });
    await dragBy(handle, 0, -100, { fromX: 200 });
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBe(Math.round(before + 100));
    // Past the top of the content area: held at 80 %.
    await dragBy(handle, 0, -area.height, { fromX: 200 });
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBe(Math.floor(area.height * 0.8));
    const stored80 = JSON.parse((await localStorageItem(page, 'details-panel'))!) as { height: number };
    expect(stored80.height).toBe(Math.floor(area.height * 0.8));
    await handle.focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBe(100);
    await panel.getByRole('button', { name: 'Expand' }).click();
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBe(Math.floor(area.height * 0.8));
    await panel.getByRole('button', { name: 'Collapse' }).click();
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBe(100);

    // Escape closes the panel; the close button too.
    await openItem(page, json);
    await visible(panel);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await openItem(page, json);
    await panel.getByRole('button', { name: 'Close details' }).click();
    await expect.poll(() => panel.count()).toBe(0);

    expect(dialogs).toEqual([]);
    expect(consoleTexts.filter((text) => text.includes(MARKER))).toEqual([]);
  });
});
