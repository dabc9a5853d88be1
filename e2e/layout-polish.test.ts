import { startSimulator, type Simulator } from '@spyglass/simulator';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUserFacts, signedInContext, signUpByApi, TEST_PASSWORD, uniqueEmail, type TestAccount } from './support/accounts';
import { newContext, recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { answerOf, UI_TIMEOUT_MS, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

interface Box { x: number; y: number; width: number; height: number }

const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box`);
  return box;
};

/** The element's content fits its box: nothing scrolls sideways or is cut off. */
/** What the sideways checks read of an element (the e2e programs compile without the DOM's types). */
interface WidthBox { scrollWidth: number; clientWidth: number }
const fitsSideways = (locator: Locator) => locator.evaluate((el: WidthBox) => el.scrollWidth <= el.clientWidth);

/** Issues found by a first-time user's trial, each checked where a regression would show. */
describe('layout polish', () => {
  const env = useE2eEnvironment();
  const contexts: BrowserContext[] = [];
  let account: TestAccount;
  let simulator: Simulator;

  beforeAll(async () => {
    account = await signUpByApi(env.server);
    // Device 1 is an iOS phone, device 2 an Android one.
    simulator = await startSimulator({ serverUrl: env.server.url, apiKey: account.profile.apiKey, devices: 2, rate: 0, seed: 11 });
    await simulator.connected();
    const ios = simulator.devices[0]!;
    for (let i = 0; i < 12; i++) await ios.act('network');
    await ios.act('log');
    await simulator.flush();
  });
  afterAll(() => simulator?.stop());
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  async function open(path: string, viewport: { width: number; height: number }, who: TestAccount = account): Promise<{ page: Page; errors: string[] }> {
    const { context, page } = await signedInContext(env.browser, env.server, who, { viewport });
    contexts.push(context);
    const errors = recordPageErrors(page);
    await page.goto(path);
    return { page, errors };
  }

  const iosDevice = () => simulator.devices[0]!;

  it('keeps the request toolbar on one row at 1440 and 1280 px with the right sidebar open, and on full rows when narrow', async () => {
    for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }]) {
      const { page, errors } = await open(`/devices/${encodeURIComponent(iosDevice().installId)}`, viewport);
      await visible(page.getByRole('grid', { name: 'Requests' }));
      const shown = answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Show right sidebar' }).click());
      await shown;
      await visible(page.getByRole('complementary', { name: 'Screen capture' }));
      const toolbar = page.getByRole('toolbar', { name: 'Requests toolbar' });
      await expect.poll(() => toolbar.getAttribute('data-layout')).toBe('compact');
      expect(await fitsSideways(toolbar)).toBe(true);
      expect(await fitsSideways(toolbar.getByRole('group', { name: 'Filter by type' }))).toBe(true);
      // Every control is inside the toolbar and on its one row.
      const bar = await boxOf(toolbar);
      const buttons = await toolbar.getByRole('button').all();
      expect(buttons.length).toBeGreaterThan(12);
      for (const button of buttons) {
        const box = await boxOf(button);
        expect(box.x).toBeGreaterThanOrEqual(bar.x);
        expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width);
        expect(box.y).toBeGreaterThanOrEqual(bar.y);
        expect(box.y + box.height).toBeLessThanOrEqual(bar.y + 40);
      }
      // The icon filters keep their names.
      await toolbar.getByRole('button', { name: 'Logs', exact: true }).click();
      await expect.poll(() => toolbar.getByRole('button', { name: 'Logs', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await toolbar.getByRole('button', { name: 'All', exact: true }).click();
      await screenshotBothSchemes(page, `layout-toolbar-${viewport.width}-right-sidebar`);
      // The setting is the account's: put back for the next viewport.
      await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Hide right sidebar' }).click());
      expect(errors).toEqual([]);
    }

    const { page } = await open(`/devices/${encodeURIComponent(iosDevice().installId)}`, { width: 390, height: 844 });
    const toolbar = page.getByRole('toolbar', { name: 'Requests toolbar' });
    await expect.poll(() => toolbar.getAttribute('data-layout')).toBe('stacked');
    expect(await fitsSideways(toolbar)).toBe(true);
    const search = await boxOf(page.getByRole('search', { name: 'Search requests' }));
    const bar = await boxOf(toolbar);
    expect(search.x + search.width).toBeLessThanOrEqual(bar.x + bar.width);
    expect(search.y + search.height).toBeLessThanOrEqual(bar.y + bar.height);
    await screenshotBothSchemes(page, 'layout-toolbar-390');
  });

  it('keeps the request toolbar on one row with three search tags, each tag readable, at 1280 and 390 px', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page, errors } = await open(`/devices/${encodeURIComponent(iosDevice().installId)}`, viewport);
      await visible(page.getByRole('grid', { name: 'Requests' }));
      const toolbar = page.getByRole('toolbar', { name: 'Requests toolbar' });
      await expect.poll(() => toolbar.getAttribute('data-layout')).toBe(viewport.width === 390 ? 'stacked' : 'wide');
      const toolbarHeight = (await boxOf(toolbar)).height;
      const input = page.getByRole('combobox', { name: 'Search' });
      const field = page.locator('.search-field');
      const tags = page.getByRole('list', { name: 'Search tags' }).getByRole('listitem');
      // The tester's steps: two filters in one go, then a word.
      await input.fill('status:>=400 -method:GET');
      await input.press('Enter');
      await input.fill('payments');
      await input.press('Enter');
      await expect.poll(() => tags.count()).toBe(3);
      const names = ['status-code:>=400', 'NOT method:GET', 'payments'];

      /** The tags shown whole inside the field (value not ellipsized), in order. */
      const shownWhole = async (): Promise<string[]> => {
        const box = await boxOf(field);
        const shown: string[] = [];
        for (const tag of await tags.all()) {
          if (!(await tag.isVisible())) continue;
          const t = await boxOf(tag);
          expect(t.x).toBeGreaterThanOrEqual(box.x);
          expect(t.x + t.width).toBeLessThanOrEqual(box.x + box.width);
          expect(t.y).toBeGreaterThanOrEqual(box.y);
          expect(t.y + t.height).toBeLessThanOrEqual(box.y + box.height);
          expect(await fitsSideways(tag.locator('.search-tag-value'))).toBe(true);
          shown.push((await tag.innerText()).replace(/\s+/g, ' ').replace(/: /, ':').trim());
        }
        return shown;
      };

      // Focused (the input keeps the focus after Enter): every tag and the input inside the field,
      // which lies over the list; the toolbar keeps its height.
      expect(await shownWhole()).toEqual(names);
      const typing = await boxOf(input);
      const expandedBox = await boxOf(field);
      expect(typing.width).toBeGreaterThanOrEqual(80);
      expect(typing.x + typing.width).toBeLessThanOrEqual(expandedBox.x + expandedBox.width);
      expect(typing.y + typing.height).toBeLessThanOrEqual(expandedBox.y + expandedBox.height);
      expect((await boxOf(toolbar)).height).toBe(toolbarHeight);
      await input.pressSequentially('cart');
      await expect.poll(() => input.inputValue()).toBe('cart');
      await input.fill('');
      await screenshotBothSchemes(page, `layout-search-tags-${viewport.width}-focused`);

      // At rest: one row; the tags that fit whole from the first, then '+N' naming the others.
      await page.locator('.inspector-stats').click();
      await expect.poll(() => field.evaluate((el: { className: string }) => el.className)).not.toContain('is-expanded');
      expect((await boxOf(field)).height).toBeLessThanOrEqual(32);
      expect((await boxOf(toolbar)).height).toBe(toolbarHeight);
      const atRest = await shownWhole();
      expect(atRest.length).toBeGreaterThanOrEqual(1);
      expect(atRest).toEqual(names.slice(0, atRest.length));
      const more = page.getByRole('button', { name: /^Show \d+ more tags?:/ });
      if (atRest.length < 3) {
        expect(await more.innerText()).toBe(`+${3 - atRest.length}`);
        expect(await more.getAttribute('aria-label')).toContain(names.length - atRest.length === 1 ? '-method:GET' : 'payments');
        const chip = await boxOf(more);
        const box = await boxOf(field);
        expect(chip.x + chip.width).toBeLessThanOrEqual(box.x + box.width);
      } else {
        expect(await more.count()).toBe(0);
      }
      await screenshotBothSchemes(page, `layout-search-tags-${viewport.width}-at-rest`);

      // The chip opens the field; a tag's x removes it there without folding the field.
      if (atRest.length < 3) {
        await more.click();
        await expect.poll(() => shownWhole()).toEqual(names);
      } else {
        await input.click();
      }
      await page.getByRole('button', { name: 'Remove -method:GET' }).click();
      await expect.poll(() => tags.count()).toBe(2);
      expect(await input.evaluate((el) => el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)).toBe(true);
      expect(await shownWhole()).toEqual(['status-code:>=400', 'payments']);
      expect(errors).toEqual([]);
    }
  });

  it('shows whole key names, helps and values in the search suggestions', async () => {
    const { page, errors } = await open(`/devices/${encodeURIComponent(iosDevice().installId)}`, { width: 1440, height: 900 });
    await visible(page.getByRole('grid', { name: 'Requests' }));
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Show right sidebar' }).click());
    const input = page.getByRole('combobox', { name: 'Search' });
    await input.click();
    await input.pressSequentially('s');
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await visible(suggestions.getByRole('option', { name: 'status-code:' }));
    const options = await suggestions.getByRole('option').all();
    expect(options.length).toBeGreaterThan(3);
    for (const option of options) {
      for (const part of await option.locator('span').all()) expect(await fitsSideways(part)).toBe(true);
    }
    const keyLine = suggestions.getByRole('option', { name: 'status-code:' });
    expect(await keyLine.innerText()).toContain('Status code: 404, >=400, 4xx or 400-499');
    // Wider than the field when it needs to be, and inside the window.
    const list = await boxOf(suggestions);
    const field = await boxOf(page.locator('.search-field'));
    expect(list.width).toBeGreaterThan(field.width);
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(1440);
    await screenshotBothSchemes(page, 'layout-search-suggestions');
    await page.keyboard.press('Escape');
    await expect.poll(() => suggestions.isVisible()).toBe(false);
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: 'Hide right sidebar' }).click());
    expect(errors).toEqual([]);
  });

  it('fits the device list in 1440 px, its columns still resizable', async () => {
    const { page, errors } = await open('/devices', { width: 1440, height: 900 });
    const table = page.getByLabel('Devices table: Up and Down select, Enter opens');
    await visible(page.getByRole('row').filter({ hasText: iosDevice().info.name! }));
    expect(await fitsSideways(table)).toBe(true);
    await screenshotBothSchemes(page, 'layout-devices-1440');

    const handle = page.getByRole('separator', { name: 'Resize column Device Name' });
    const header = page.getByRole('columnheader', { name: 'Device Name' });
    const before = (await boxOf(header)).width;
    const grip = await boxOf(handle);
    const saved = answerOf(page, 'POST', '/user/settings', async () => {
      await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
      await page.mouse.down();
      await page.mouse.move(grip.x + grip.width / 2 + 80, grip.y + grip.height / 2, { steps: 5 });
      await page.mouse.up();
    });
    const columns = ((await saved).request().postDataJSON() as { settings: { deviceColumns: Array<{ id: string; width: number }> } }).settings.deviceColumns;
    expect(columns.find((c) => c.id === 'name')!.width).toBe(Math.round(before) + 80);
    await expect.poll(async () => Math.round((await boxOf(header)).width)).toBe(Math.round(before) + 80);
    // The other columns gave way: still no sideways scrolling.
    expect(await fitsSideways(table)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('marks a locked user in the admin list, fits it in 1440 px with whole dates and headers, and keeps the columns chosen', async () => {
    const run = `${process.pid}-${Date.now()}`;
    const admin = await signUpByApi(env.server, `polish-admin-${run}@acme-polish.io`);
    await setUserFacts(env.server, admin.email, { is_admin: 1, email_verified: 1 });
    const locked = await signUpByApi(env.server, `polish-locked-${run}@acme-polish.io`);
    await setUserFacts(env.server, locked.email, { is_locked: 1 });
    const { page, errors } = await open('/admin', { width: 1440, height: 900 }, admin);
    const row = page.getByRole('row').filter({ hasText: locked.email });
    // Email, Created At, Plan, Devices, Latest Request, Status...
    await visible(row.getByRole('gridcell').nth(5).getByText('locked', { exact: true }));
    expect(await row.getByText('active', { exact: true }).count()).toBe(0);
    const created = row.getByRole('gridcell').nth(1).locator('.admin-cell-text');
    expect(await created.innerText()).toMatch(/\d{4}/);
    expect(await fitsSideways(created)).toBe(true);
    // At 1440 px the list fits its box: nothing scrolls sideways, every header is whole, and a long
    // e-mail is ellipsized with the whole address as its title.
    expect(await fitsSideways(page.locator('.admin-table-scroll'))).toBe(true);
    for (const header of await page.locator('.admin-th-text').all()) {
      expect(await header.evaluate((el: WidthBox & { scrollHeight: number; clientHeight: number }) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
    }
    const email = row.getByRole('gridcell').first();
    expect(await email.getAttribute('title')).toBe(locked.email);
    expect(await fitsSideways(email.locator('.admin-cell-text'))).toBe(false);
    await screenshotBothSchemes(page, 'layout-admin');

    await page.getByRole('columnheader', { name: 'Plan' }).click({ button: 'right' });
    const saved = answerOf(page, 'POST', '/user/settings', () => page.getByRole('menuitemcheckbox', { name: 'Plan' }).click());
    const adminColumns = ((await saved).request().postDataJSON() as { settings: { adminColumns: Array<{ id: string; isVisible: boolean }> } }).settings.adminColumns;
    expect(adminColumns.find((c) => c.id === 'plan')!.isVisible).toBe(false);
    await page.keyboard.press('Escape');
    await page.reload();
    await visible(row);
    expect(await page.getByRole('columnheader', { name: 'Plan' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Created At' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('draws the guided overlay\'s highlight around each step\'s target', async () => {
    const { page, errors } = await open('/welcome-tour', { width: 1440, height: 900 });
    await page.getByRole('region', { name: 'Basic Tutorial' }).getByRole('button', { name: 'Start guided tour' }).click();
    const overlay = page.getByRole('dialog', { name: 'Guided tour' });
    const targets: Array<[number, Locator]> = [
      [2, page.locator('.nav-item-button', { hasText: 'Take Screenshot' })],
      [3, page.locator('.nav-item-button', { hasText: 'Open Debug Window' })],
      [4, page.getByRole('search', { name: 'Search requests' }).locator('.search-field')],
    ];
    await visible(overlay.getByText('Step 1 of 4'));
    for (const [step, target] of targets) {
      await overlay.getByRole('button', { name: 'Next' }).click();
      await visible(overlay.getByText(`Step ${step} of 4`));
      // 6 px of room on every side; waited for, since the highlight glides to its place.
      await expect.poll(async () => {
        const [highlight, box] = await Promise.all([boxOf(page.locator('.guided-highlight')), boxOf(target)]);
        return [highlight.x - box.x, highlight.y - box.y, highlight.width - box.width, highlight.height - box.height].map(Math.round);
      }, { timeout: UI_TIMEOUT_MS }).toEqual([-6, -6, 12, 12]);
    }
    await screenshotBothSchemes(page, 'layout-guided-overlay-search');
    await overlay.getByRole('button', { name: 'Close' }).click();
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('says "Verification email sent!" once after sign-up', async () => {
    const context = await newContext(env.browser, env.server.url);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/signup');
    await (await visible(page.getByLabel('Email', { exact: true }))).fill(uniqueEmail('polish'));
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL('**/signin');
    const message = page.getByText('Verification email sent! Please check your inbox.');
    await visible(message);
    // A toast would have come with the navigation: the notice is on the page alone.
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await message.count()).toBe(1);
  });

  it('lists the simulated iPhone\'s user defaults and adds a key to the device', async () => {
    const device = iosDevice();
    const { page, errors } = await open(`/devices/${encodeURIComponent(device.installId)}/user-defaults`, { width: 1440, height: 900 });
    const table = page.getByRole('table', { name: 'User defaults' });
    const rowOf = (name: string, key: string) => table.getByRole('row').filter({ has: page.getByRole('button', { name: `Delete ${name} / ${key}` }) });
    await visible(rowOf('standard', 'AppleLocale'));
    await visible(rowOf(`group.${device.info.bundleId}`, 'widgetDisplayMode'));

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user default' });
    await dialog.getByLabel('Key', { exact: true }).fill('AppleLocale');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await visible(dialog.getByText('standard already has the key AppleLocale'));
    await dialog.getByLabel('Key', { exact: true }).fill('betaOptIn');
    // The refusal was about the key as it was.
    expect(await dialog.getByText('standard already has the key AppleLocale').count()).toBe(0);
    await dialog.getByLabel('Value', { exact: true }).fill('{"channel": "beta", "since": 3}');
    await screenshotBothSchemes(page, 'layout-user-defaults-add');
    const added = answerOf(page, 'POST', `/user-defaults`, () => dialog.getByRole('button', { name: 'Add', exact: true }).click());
    expect((await added).status()).toBe(200);
    await visible(rowOf('standard', 'betaOptIn'));
    expect(await dialog.count()).toBe(0);
    expect(await device.client.userDefaults.get('betaOptIn')).toEqual({ channel: 'beta', since: 3 });
    await screenshotBothSchemes(page, 'layout-user-defaults');
    expect(errors).toEqual([]);
  });

  it('shows the companion page as the phone\'s own screen, with no phone drawn inside it, and the debug sheet on it', async () => {
    const phoneContext = await newContext(env.browser, env.server.url, {
      viewport: { width: 390, height: 844 },
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(phoneContext);
    const phone = await phoneContext.newPage();
    const errors = recordPageErrors(phone);
    await phone.goto(`/companion?api-key=${encodeURIComponent(account.profile.apiKey)}`);
    await visible(phone.getByRole('status', { name: 'Status' }).getByText('Connected'));
    // The drawn screen (what screenshots and screen capture send) shows nowhere on the page: no
    // point of the window, sampled every 10 px, is on it.
    await phone.locator('[data-emulated-screen]').waitFor({ state: 'attached' });
    expect(await phone.evaluate<number>(`(() => {
      let hits = 0;
      for (let x = 0; x < innerWidth; x += 10) for (let y = 0; y < innerHeight; y += 10) {
        if (document.elementFromPoint(x, y)?.closest('[data-emulated-screen]')) hits++;
      }
      return hits;
    })()`)).toBe(0);
    await screenshotBothSchemes(phone, 'layout-companion');

    const installId = await phone.evaluate<string | null>("localStorage.getItem('spyglass.companion.installId')");
    const { page } = await open(`/devices/${encodeURIComponent(installId!)}`, { width: 1280, height: 800 });
    const opened = await answerOf(page, 'GET', `/devices/${installId!}/open-spyglass-sheet`, () => page.getByRole('button', { name: 'Open Debug Window' }).click());
    expect(opened.status()).toBe(200);
    const sheet = phone.getByRole('dialog', { name: 'Spyglass' });
    await visible(sheet.getByText('Debug window opened from the dashboard'));
    await screenshotBothSchemes(phone, 'layout-companion-sheet');
    await sheet.getByRole('button', { name: 'Close' }).click();
    expect(await sheet.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
