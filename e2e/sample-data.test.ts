import { SAMPLE_DEVICE_ID, SAMPLE_ITEM_COUNT, type CompactItem } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { details, openItem } from './support/inspector';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Spec 001 §9 and spec 002 'Sample data' (issue 21 acceptance 1). */
describe('sample data on 1-demo', () => {
  const env = useE2eEnvironment({ env: { SAMPLE_DEVICE: '1' } });
  const fixtures = useStoryFixtures(env);

  it('a new account sees 1-demo with its 32 sample items, opens each kind, and the sample goes when a real device connects', async () => {
    const { account, page } = await fixtures.signedInUser();

    // The device list: one row, marked as a sample.
    await page.goto('/devices');
    const sampleRow = page.locator('tbody tr').filter({ hasText: 'Sample iPhone' });
    await visible(sampleRow.getByText('Sample', { exact: true }));
    expect(await page.locator('tbody tr').count()).toBe(1);
    await screenshotBothSchemes(page, 'sample-device-list');

    await sampleRow.click();
    await page.waitForURL(`**/devices/${SAMPLE_DEVICE_ID}`);
    await visible(page.getByText('Sample data: 32 example requests, logs and events to try the inspector on.', { exact: false }));
    await expect.poll(() => page.locator('.req-row').count(), { timeout: 15_000 }).toBe(SAMPLE_ITEM_COUNT);

    const items = await storedItems(env.server, account.token, SAMPLE_DEVICE_ID);
    const find = (test: (i: CompactItem) => boolean) => {
      const item = items.find(test);
      if (!item) throw new Error('sample item missing');
      return item;
    };
    const panel = details(page);

    // JSON: the three sample TODO items as a tree.
    await openItem(page, find((i) => i.url?.endsWith('/v1/todos?status=all') === true));
    await visible(panel.getByRole('tree', { name: 'Response body' }).getByText('"Buy groceries"'));
    await screenshotBothSchemes(page, 'sample-details-json');
    // An image response.
    await openItem(page, find((i) => i.url?.endsWith('/avatar.png') === true));
    await visible(panel.getByRole('img', { name: /Response body of/ }));
    // A server error and a slow request.
    await openItem(page, find((i) => i.status === 500));
    await visible(panel.getByText('Payment provider timed out', { exact: false }).first());
    await openItem(page, find((i) => (i.duration ?? 0) > 3000 && i.status === 200));
    // A log with a stack trace.
    await openItem(page, find((i) => i.type === 'log' && i.level === 'error' && i.details.message.startsWith('Unexpectedly')));
    await visible(panel.getByRole('table', { name: 'Stack trace' }).getByText('CheckoutViewController', { exact: false }).first());
    await screenshotBothSchemes(page, 'sample-details-log');
    // An event, an analytics event and a screenshot.
    await openItem(page, find((i) => i.type === 'event'));
    await openItem(page, find((i) => i.type === 'firebaseAnalytics'));
    await openItem(page, find((i) => i.type === 'screenshot'));
    await visible(panel.getByRole('img', { name: 'Todo list' }));

    // A real device connects: the sample is out of the way, on the open dashboard and in the list.
    await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['android'], seed: 21 });
    await page.waitForURL('**/devices', { timeout: 15_000 });
    await expect.poll(() => page.locator('tbody tr').filter({ hasText: 'Sample iPhone' }).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 15_000 }).toBe(1);
    await page.reload();
    await visible(page.locator('tbody tr').first());
    expect(await page.locator('tbody tr').filter({ hasText: 'Sample iPhone' }).count()).toBe(0);
  });

  it('the connect screen shows the showcase while waiting: one more sample request every second after 3 s, gone once a device connects', async () => {
    const { account, page } = await fixtures.signedInUser();
    await page.goto('/devices/new');
    await visible(page.getByText('Waiting for devices to connect...'));
    const rows = page.locator('.connect-showcase .showcase-row');
    await expect.poll(() => rows.count()).toBe(5);
    // The sixth row comes after 3 s, the seventh a second later (the oldest then scrolls away at six).
    await rows.nth(5).waitFor({ timeout: 10_000 });
    await screenshotBothSchemes(page, 'connect-showcase');
    await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['ios'], seed: 22 });
    await visible(page.getByText('New device connected!'));
    await expect.poll(() => page.locator('.connect-showcase').count()).toBe(0);
  });
});
