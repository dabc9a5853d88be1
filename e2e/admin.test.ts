import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, type PartialSettings } from '@spyglass/protocol';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { markOnboarded, setUserFacts, signedInContext, signUpByApi, type TestAccount } from './support/accounts';
import { CHROMIUM_ARGS, chromiumPath, recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, UI_TIMEOUT_MS, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** The e-mails of the rows the list shows now, top to bottom. */
const shownEmails = (page: Page) => page.locator('.admin-row [role="gridcell"]:first-child .admin-cell-text').allTextContents();

describe('admin user management', () => {
  // Test accounts here are at example.com, which the list leaves out by default: this server counts no domain as a test one.
  const env = useE2eEnvironment({ env: { ADMIN_TEST_EMAIL_DOMAINS: '' } });
  const fixtures = useStoryFixtures(env);

  const completeOnboarding = (account: TestAccount) => markOnboarded(env.server, account.token, account.profile.id);

  /** An admin, as an operator makes one with ADMIN_EMAILS and a verified address (start-up is covered by the API tests), past onboarding. */
  async function signUpAdmin(email?: string): Promise<TestAccount> {
    const admin = await signUpByApi(env.server, email);
    await setUserFacts(env.server, admin.email, { is_admin: 1, email_verified: 1 });
    await completeOnboarding(admin);
    return admin;
  }

  /** Saves settings as the web client does (POST /v1/user/settings). */
  async function saveSettings(account: TestAccount, settings: PartialSettings): Promise<void> {
    const res = await fetch(`${env.server.url}/v1/user/settings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD },
      body: JSON.stringify({ settings }),
    });
    if (!res.ok) throw new Error(`saving settings answered ${res.status} ${await res.text()}`);
  }

  async function open(account: TestAccount, path: string): Promise<{ page: Page; errors: string[] }> {
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto(path);
    return { page, errors };
  }

  it('an admin opens /admin, searches, sorts, hides a column, and locks a user who then sees only Account Locked', async () => {
    const run = `${process.pid}-${Date.now()}`;
    const admin = await signUpAdmin(`admin-${run}@example.com`);
    const users: TestAccount[] = [];
    for (const name of ['carol', 'alice', 'bob']) users.push(await signUpByApi(env.server, `${name}-${run}@example.com`));
    const bob = users[2]!;
    await completeOnboarding(bob);
    const { page: bobPage } = await open(bob, '/devices');
    await visible(bobPage.getByRole('link', { name: 'Devices' }).first());

    const { page, errors } = await open(admin, '/devices');
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    await visible(page.getByRole('heading', { name: /User Management/ }));
    await expect.poll(() => page.locator('.page-count').textContent(), { timeout: UI_TIMEOUT_MS }).toBe('4');
    for (const label of ['Total Users', 'On Trial', 'Team (Active)', 'Pro (Active)', 'Enterprise (Active)']) await visible(page.getByLabel(label, { exact: true }));
    await expect.poll(() => page.getByLabel('Total Users', { exact: true }).textContent()).toContain('4');
    expect(await page.getByRole('switch', { name: 'Hide Demo Users' }).isChecked()).toBe(true);
    // Newest first by default: bob signed up last; canceledAt is hidden.
    await expect.poll(() => shownEmails(page)).toEqual([bob.email, users[1]!.email, users[0]!.email, admin.email]);
    expect(await page.getByRole('columnheader', { name: 'Canceled At' }).count()).toBe(0);
    await screenshotBothSchemes(page, 'admin');

    // Search on the server.
    const searched = answerOf(page, 'GET', '/admin/users', () => page.getByRole('searchbox', { name: 'Search users' }).fill('alice'));
    expect(new URL((await searched).url()).searchParams.get('search')).toBe('alice');
    await expect.poll(() => shownEmails(page)).toEqual([users[1]!.email]);
    await expect.poll(() => page.locator('.page-count').textContent()).toBe('1');
    await page.getByRole('searchbox', { name: 'Search users' }).fill('');
    await expect.poll(() => shownEmails(page)).toHaveLength(4);

    // Sort by a header: ascending, then descending.
    const sorted = answerOf(page, 'GET', '/admin/users', () => page.getByRole('columnheader', { name: 'Email' }).getByRole('button').click());
    expect(new URL((await sorted).url()).searchParams.get('sort')).toBe('email');
    await expect.poll(() => shownEmails(page)).toEqual([admin.email, users[1]!.email, bob.email, users[0]!.email]);
    await page.getByRole('columnheader', { name: 'Email' }).getByRole('button').click();
    await expect.poll(() => shownEmails(page)).toEqual([users[0]!.email, bob.email, users[1]!.email, admin.email]);
    expect(await page.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('descending');

    // Hide a column through the header's right-click menu, and show canceledAt.
    await page.getByRole('columnheader', { name: 'Plan' }).click({ button: 'right' });
    // Styled on a page opened directly: the menus' styles once came only with the device list's chunk.
    expect(await page.getByRole('menu').evaluate('(menu) => getComputedStyle(menu).backgroundColor')).not.toBe('rgba(0, 0, 0, 0)');
    await page.getByRole('menuitemcheckbox', { name: 'Plan' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Canceled At' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Plan' }).count()).toBe(0);
    await visible(page.getByRole('columnheader', { name: 'Canceled At' }));

    // Resize a column with the keyboard on its handle.
    const emailHeader = page.getByRole('columnheader', { name: 'Email' });
    const before = (await emailHeader.boundingBox())!.width;
    await page.getByRole('separator', { name: 'Resize column Email' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await emailHeader.boundingBox())!.width).toBeGreaterThan(before);

    // Lock bob.
    await page.getByRole('button', { name: `Actions for ${bob.email}` }).click();
    const locked = answerOf(page, 'PATCH', `/admin/users/${bob.profile.id}`, () => page.getByRole('menuitem', { name: 'Lock user' }).click());
    expect((await locked).request().postDataJSON()).toEqual({ isLockedUser: true });
    await visible(page.getByText('User locked'));
    await visible(page.locator(`.admin-row[data-user-id="${bob.profile.id}"].is-locked`));
    await screenshotBothSchemes(page, 'admin-locked-user');

    await bobPage.reload();
    await visible(bobPage.getByRole('dialog', { name: 'Account Locked' }));
    await visible(bobPage.getByText('Your account has been locked. Please contact support to unlock.'));
    expect(await bobPage.getByRole('link', { name: 'Devices' }).count()).toBe(0);
    await screenshotBothSchemes(bobPage, 'admin-account-locked');
    expect(errors).toEqual([]);
  });

  // Spec 000 §2.7: the list's columns, and 'the email is also shown'. At 1440 px an e-mail of 30
  // characters read 'maria-1234…' beside a 'free' badge that repeated the Plan column.
  it('shows a 30-character e-mail whole at 1440 px, without a badge repeating the plan, and fits without scrolling sideways', async () => {
    const admin = await signUpAdmin();
    // This file's server is its own: a fixed address is new to it.
    const email = 'maria.gonzalez-ruiz@company.io';
    expect(email).toHaveLength(30);
    await signUpByApi(env.server, email);
    await setUserFacts(env.server, email, { is_free_user: 1 });
    const { page, errors } = await fixtures.signedInUser({ account: admin, context: { viewport: { width: 1440, height: 900 } } });
    await page.goto('/admin');
    const row = page.locator('.admin-row').filter({ hasText: email });
    const emailText = row.locator('[role="gridcell"]:first-child .admin-cell-text');
    await expect.poll(() => emailText.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(email);
    // Whole: the text is not cut by its ellipsis.
    expect(await emailText.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await visible(row.getByRole('gridcell').filter({ hasText: /^free$/ }));
    expect(await page.locator('.admin-badge').filter({ hasText: 'free' }).count()).toBe(0);
    expect(await page.locator('.admin-table-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // The columns that gave way still show their headers whole (two lines at most) and their dates.
    const cut = await page.locator('.admin-th-text').evaluateAll((headers) => headers.filter((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight).map((el) => el.textContent));
    expect(cut).toEqual([]);
    expect(await row.getByRole('gridcell').nth(1).textContent()).toMatch(/^\d{4}-\d\d-\d\d$/);
    await screenshotBothSchemes(page, 'admin-1440');
    expect(errors).toEqual([]);
  });

  // An admin who resized or hid a column before d1684b5 and e3547f3 made the columns denser had
  // every column's width saved, those left at their defaults too: Created At kept 106 px, the
  // e-mail 240 px (no longer taken as its default, so not fitted) and the list scrolled sideways,
  // cutting a 30-character e-mail. The saved layout now carries a number; older widths still at an
  // old default take today's.
  it('brings columns saved on an earlier layout to today\'s widths at 1440 px, keeping the admin\'s choices and widths chosen since', async () => {
    const admin = await signUpAdmin();
    // 239 px of text: cut in the old 240 px column (12 px of it padding), even without a scroll bar.
    const email = 'william.mcmurray@mountwood.com';
    expect(email).toHaveLength(30);
    await signUpByApi(env.server, email);
    // As the list saved them on layout 3 (38198a1), unnumbered: Plan hidden and Customer widened
    // to 120 px by the admin, the others at that layout's defaults.
    const layout3 = { email: 240, createdAt: 106, canceledAt: 106, plan: 94, devices: 86, latestRequest: 106, status: 86, trafficUsed: 88, trafficLimit: 88, percentageUsed: 72, billingCycle: 76, numRequests: 96, customer: 120 };
    await saveSettings(admin, { adminColumns: Object.entries(layout3).map(([id, width]) => ({ id, label: id, width, isVisible: id !== 'plan' && id !== 'canceledAt' })) });

    const { page, errors } = await fixtures.signedInUser({ account: admin, context: { viewport: { width: 1440, height: 900 } } });
    await page.goto('/admin');
    const emailText = page.locator('.admin-row').filter({ hasText: email }).locator('[role="gridcell"]:first-child .admin-cell-text');
    await expect.poll(() => emailText.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(email);
    const headerWidth = async (column: string) => Math.round((await page.locator(`.admin-th[data-column="${column}"]`).boundingBox())!.width);
    const whole = (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth;
    expect(await emailText.evaluate(whole)).toBe(true);
    expect(await page.locator('.admin-table-scroll').evaluate(whole)).toBe(true);
    expect(await headerWidth('createdAt')).toBe(88);
    expect(await headerWidth('devices')).toBe(66);
    // The admin's own choices stand.
    expect(await headerWidth('customer')).toBe(120);
    expect(await page.getByRole('columnheader', { name: 'Plan' }).count()).toBe(0);
    await screenshotBothSchemes(page, 'admin-1440-earlier-layout');

    // Devices widened by two steps of its handle, 66 -> 86 px: layout 3's default, chosen now. It
    // is saved with the layout's number and stands after a reload.
    await page.getByRole('separator', { name: 'Resize column Devices' }).focus();
    await answerOf(page, 'POST', '/user/settings', () => page.keyboard.press('ArrowRight'));
    const saved = await answerOf(page, 'POST', '/user/settings', () => page.keyboard.press('ArrowRight'));
    const body = saved.request().postDataJSON() as { settings: PartialSettings };
    expect(body.settings.adminColumns!.find((c) => c.id === 'devices')!.width).toBe(86);
    expect(body.settings.adminColumnsLayout).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => emailText.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(email);
    expect(await headerWidth('devices')).toBe(86);
    expect(await headerWidth('createdAt')).toBe(88);
    expect(await headerWidth('customer')).toBe(120);
    expect(errors).toEqual([]);
  });

  // Playwright's headless Chromium hides scroll bars (its --hide-scrollbars default). With one shown,
  // as on a desktop (10 px, thin), the columns fitted the box's 1160 px inner width and left the
  // e-mail 232 px: 'firstname.lastname@company.com' (230 px of text in 220) was cut.
  describe('with the scroll bars a desktop browser shows', () => {
    let browser: Browser | undefined;
    afterAll(() => browser?.close());

    it('shows a 30-character e-mail whole at 1440 px beside the list\'s vertical scroll bar, without scrolling sideways', async () => {
      browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--hide-scrollbars'] });
      const admin = await signUpAdmin();
      const email = 'firstname.lastname@company.com';
      expect(email).toHaveLength(30);
      await signUpByApi(env.server, email);
      // Enough users for the list to scroll at 900 px high (the other tests' users count too).
      for (let i = 0; i < 24; i++) await signUpByApi(env.server);
      const { context, page } = await signedInContext(browser, env.server, admin, { viewport: { width: 1440, height: 900 } });
      const errors = recordPageErrors(page);
      await page.goto('/admin');
      const emailText = page.locator('.admin-row').filter({ hasText: email }).locator('[role="gridcell"]:first-child .admin-cell-text');
      await expect.poll(() => emailText.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(email);
      const scroller = page.locator('.admin-table-scroll');
      // The scroll bar is there: the box's inner width is its outer one less the 1 px borders and the bar.
      const bar = await scroller.evaluate((el: { offsetWidth: number; clientWidth: number }) => el.offsetWidth - 2 - el.clientWidth);
      expect(bar).toBeGreaterThanOrEqual(8);
      const whole = (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth;
      // Headers (two lines at most, the sorted one with its arrow), and no sideways scroll.
      const cutHeaders = () => page.locator('.admin-th-text').evaluateAll((headers) => headers
        .filter((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight || el.parentElement!.scrollWidth > el.parentElement!.clientWidth)
        .map((el) => el.textContent));
      expect(await emailText.evaluate(whole)).toBe(true);
      expect(await scroller.evaluate(whole)).toBe(true);
      expect(await cutHeaders()).toEqual([]);
      await screenshotBothSchemes(page, 'admin-1440-scroll-bar');
      // Sorted by a narrow column: its header widens for the arrow, the e-mail still shows whole.
      await page.getByRole('columnheader', { name: 'Devices' }).getByRole('button').click();
      await expect.poll(() => page.getByRole('columnheader', { name: 'Devices' }).getAttribute('aria-sort')).toBe('ascending');
      await visible(emailText);
      expect(await emailText.evaluate(whole)).toBe(true);
      expect(await scroller.evaluate(whole)).toBe(true);
      expect(await cutHeaders()).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  it('shows the error texts with Retry when the list cannot load', async () => {
    const admin = await signUpAdmin();
    const { page } = await fixtures.signedInUser({ account: admin });
    await page.route('**/v1/admin/users?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.goto('/admin');
    await visible(page.getByText('Error loading users'));
    await visible(page.getByText('Failed to load users'));
    await screenshotBothSchemes(page, 'admin-error');
    await page.unroute('**/v1/admin/users?*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByRole('row').filter({ hasText: admin.email }));
  });

  it('keeps non-admins out of /admin', async () => {
    const user = await signUpByApi(env.server);
    await completeOnboarding(user);
    const { page } = await open(user, '/admin');
    await page.waitForURL('**/devices');
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
  });
});
