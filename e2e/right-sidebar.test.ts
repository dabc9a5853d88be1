import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/**
 * The right sidebar (screen capture) on addresses under /devices that name no device: the Add a
 * device screen (/devices/new) and an id the account does not have. It must neither ask the
 * server for a device called 'new' nor wait forever on one that is not there.
 */
describe('right sidebar without a device', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);
  const panel = (page: Page) => page.getByRole('complementary', { name: 'Screen capture' });

  it('shows no device on /devices/new and Device not found for an unknown id, never a spinner', async () => {
    const { page, errors } = await fixtures.signedInUser();
    const deviceCalls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/v1/devices/')) deviceCalls.push(pathname);
    });
    await page.goto('/devices/new');
    await visible(page.getByRole('heading', { name: 'Add a device' }));
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Show right sidebar', exact: true }).click());
    await visible(panel(page).getByText('Open a device to watch its screen here.'));
    expect(await panel(page).getByRole('status', { name: 'Loading device' }).count()).toBe(0);
    await screenshotBothSchemes(page, 'right-sidebar-add-device');

    await page.goto('/devices/no-such-device');
    await visible(panel(page).getByText('Device not found'));
    // The device list's own request may still be settling in the same frame: the spinner must be gone, not never drawn.
    await expect.poll(() => panel(page).getByRole('status', { name: 'Loading device' }).count()).toBe(0);
    expect(await panel(page).getByRole('button', { name: 'Start Capture' }).count()).toBe(0);
    await screenshotBothSchemes(page, 'right-sidebar-unknown-device');

    expect(deviceCalls.filter((p) => p.startsWith('/v1/devices/new'))).toEqual([]);
    // The unknown id's own 404 is the page's answer, shown as Device not found; nothing else failed.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
});
