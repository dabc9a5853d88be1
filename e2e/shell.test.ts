import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setUserFacts, signUpByApi } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';

/** The signed-in shell around every screen (issue 3: banners, toggles, the locked state). */
describe('shell', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  /** A fresh account, with the given operator-set facts, signed in and at `path`. */
  async function open(path: string, facts: Parameters<typeof setUserFacts>[2] = {}, options: BrowserContextOptions = {}): Promise<Page> {
    const account = await signUpByApi(env.server);
    if (Object.keys(facts).length > 0) await setUserFacts(env.server, account.email, facts);
    const { page } = await fixtures.signedInUser({ account, context: options });
    await page.goto(path);
    return page;
  }

  it('shows the offline banner while the browser is offline', async () => {
    const page = await open('/devices');
    const banner = page.getByText('You are currently offline. Some features may not be available.');
    await visible(page.getByRole('button', { name: 'Logout' }));
    expect(await banner.count()).toBe(0);
    await page.context().setOffline(true);
    await visible(banner);
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached' });
  });

  it('hides the sidebar with its toggle and keeps it hidden after a reload', async () => {
    const page = await open('/devices');
    const logout = await visible(page.getByRole('button', { name: 'Logout' }));
    const toggle = page.getByRole('button', { name: 'Hide sidebar', exact: true });
    const save = await answerOf(page, 'POST', '/user/settings', () => toggle.click());
    expect(save.request().postDataJSON()).toEqual({ settings: { showSidebar: false } });
    await logout.waitFor({ state: 'detached' });

    await page.reload();
    await visible(page.getByRole('button', { name: 'Show sidebar', exact: true }));
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
  });

  it('opens the right sidebar and keeps its width (at least 200) across a reload', async () => {
    const page = await open('/devices');
    const show = await visible(page.getByRole('button', { name: 'Show right sidebar', exact: true }));
    const shown = await answerOf(page, 'POST', '/user/settings', () => show.click());
    expect(shown.request().postDataJSON()).toEqual({ settings: { showRightSidebar: true } });
    const handle = await visible(page.getByRole('separator', { name: 'Resize right sidebar', exact: true }));
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(320);

    // The handle is on the panel's left edge: dragging left widens it.
    const box = (await handle.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const widened = await answerOf(page, 'POST', '/user/settings', async () => {
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x - 100, y, { steps: 8 });
      await page.mouse.up();
    });
    expect(widened.request().postDataJSON()).toEqual({ settings: { rightSidebarWidth: 420 } });

    await page.reload();
    const reloaded = await visible(page.getByRole('separator', { name: 'Resize right sidebar', exact: true }));
    expect(Number(await reloaded.getAttribute('aria-valuenow'))).toBe(420);
    expect(Math.round((await reloaded.locator('xpath=..').boundingBox())!.width)).toBe(420);

    // Home goes to the minimum of spec 000 §9.
    await reloaded.focus();
    const narrowed = await answerOf(page, 'POST', '/user/settings', () => page.keyboard.press('Home'));
    expect(narrowed.request().postDataJSON()).toEqual({ settings: { rightSidebarWidth: 200 } });
  });

  it('shows the mobile info box on the device list of a narrow portrait screen only', async () => {
    const phone = await open('/devices', {}, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await visible(phone.getByRole('heading', { name: /Devices|No Devices/ }));
    await visible(phone.getByRole('note'));
    await phone.context().close();

    // Under 768 wide but landscape: not mobile (spec 000 §2.2).
    const landscape = await open('/devices', {}, { viewport: { width: 740, height: 400 } });
    await visible(landscape.getByRole('heading', { name: /Devices|No Devices/ }));
    expect(await landscape.getByRole('note').count()).toBe(0);
  });

  it('shows the quota banner, whose Upgrade Plan opens the subscription in settings', async () => {
    const page = await open('/devices', { should_block_requests: 1 });
    await visible(page.getByText('You have exceeded your quota. Please upgrade your plan'));
    await page.getByRole('link', { name: 'Upgrade Plan' }).click();
    await page.waitForURL('**/settings#subscription-details');
    await visible(page.getByRole('region', { name: 'Subscription' }));
  });

  it('shows a locked user only the Account Locked dialog, whose Logout signs out', async () => {
    const page = await open('/settings', { is_locked: 1 });
    const dialog = await visible(page.getByRole('dialog', { name: 'Account Locked' }));
    await visible(dialog.getByText('Your account has been locked. Please contact support to unlock.'));
    expect(await page.getByRole('heading', { name: 'General' }).count()).toBe(0);
    // Blocking: Escape does not close it.
    await page.keyboard.press('Escape');
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Logout' }).click();
    await visible(page.getByRole('button', { name: 'Sign In', exact: true }));
  });
});
