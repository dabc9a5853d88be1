import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage, SettingsResponse, TOUR_EVENTS, type WelcomeTour } from '@spyglass/protocol';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { markOnboarded, signUpByApi, type TestAccount } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures, type SignedInUser, type SimulatedDevice } from './support/fixtures';
import { answerOf, UI_TIMEOUT_MS, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD });

async function api<T>(serverUrl: string, account: TestAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${serverUrl}/v1${path}`, { method, headers: headers(account.token), body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/** A step's checkbox on /welcome-tour, inside its tour's card. */
const stepBox = (page: Page, tour: string, step: string) =>
  page.getByRole('region', { name: tour }).getByRole('listitem').filter({ hasText: step }).getByRole('checkbox');

async function waitChecked(page: Page, tour: string, step: string, checked = true): Promise<void> {
  await expect.poll(() => stepBox(page, tour, step).isChecked(), { timeout: UI_TIMEOUT_MS }).toBe(checked);
}

/** What the page reads of the highlight once it has glided to its place (its CSS transition over), and of the step's target. */
interface HighlightFrame {
  highlight: Edges | null;
  dimmed: boolean;
  target: Edges | null;
  /** The element on top at the target's middle is the target or inside it. */
  topmost: boolean;
  viewport: { width: number; height: number };
}
interface Edges { left: number; top: number; right: number; bottom: number }

// Page code, as text: the e2e sources are compiled without the DOM's types.
const settledHighlight = (target: { selector: string; text?: string }) => `(() => {
  const el = document.querySelector('.guided-highlight');
  if (el && el.getAnimations().length > 0) return null;
  const edges = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const text = ${JSON.stringify(target.text ?? '')};
  const target = Array.from(document.querySelectorAll(${JSON.stringify(target.selector)})).find((t) => t.textContent.includes(text) && t.getClientRects().length > 0);
  const box = target && target.getBoundingClientRect();
  const top = box && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { highlight: el ? edges(el.getBoundingClientRect()) : null, dimmed: document.querySelector('.guided-dim') !== null, target: box ? edges(box) : null, topmost: Boolean(top && target.contains(top)), viewport: { width: window.innerWidth, height: window.innerHeight } };
})()`;

/** The steps' targets of BASIC_TUTORIAL, as overlay-steps.ts finds them (the first one shown). */
const BASIC_TARGETS = [
  { selector: '[role="grid"][aria-label="Requests"], .console-view' },
  { selector: '.nav-item-button', text: 'Take Screenshot' },
  { selector: '.nav-item-button', text: 'Open Debug Window' },
  { selector: '[role="search"][aria-label="Search requests"] .search-field' },
];

/**
 * Waits for the step's highlight to settle around a shown target and checks it: inside the window
 * (its ring too), framing the target, the page not dimmed, nothing on top of the target's middle.
 */
async function expectSettledHighlight(page: Page, target: { selector: string; text?: string }, label: string): Promise<void> {
  let frame: HighlightFrame | null = null;
  await expect.poll(async () => {
    const read = await page.evaluate<HighlightFrame | null>(settledHighlight(target));
    frame = read;
    return read !== null && read.highlight !== null && read.target !== null;
  }, { timeout: UI_TIMEOUT_MS, message: `${label}: a settled highlight around a shown target` }).toBe(true);
  const { highlight, dimmed, target: framed, topmost, viewport: shown } = frame!;
  const where = `${label}: highlight ${JSON.stringify(highlight)}, target ${JSON.stringify(framed)}`;
  if (!highlight || !framed) throw new Error(`${where}: no highlight`);
  expect(dimmed, where).toBe(false);
  // Its 2 px accent ring (a shadow outside the box) shows whole too.
  expect(highlight.left, where).toBeGreaterThanOrEqual(2);
  expect(highlight.top, where).toBeGreaterThanOrEqual(2);
  expect(highlight.right, where).toBeLessThanOrEqual(shown.width - 2);
  expect(highlight.bottom, where).toBeLessThanOrEqual(shown.height - 2);
  // And it still frames the target: all of it that lies 8 px or more inside the window.
  expect(highlight.left, where).toBeLessThanOrEqual(Math.max(framed.left, 8));
  expect(highlight.top, where).toBeLessThanOrEqual(Math.max(framed.top, 8));
  expect(highlight.right, where).toBeGreaterThanOrEqual(Math.min(framed.right, shown.width - 8));
  expect(highlight.bottom, where).toBeGreaterThanOrEqual(Math.min(framed.bottom, shown.height - 8));
  // The target is what the user sees there: neither the instruction card nor the drawer's
  // backdrop lies over its middle.
  expect(topmost, where).toBe(true);
}

describe('welcome tour', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  async function start(): Promise<SignedInUser & SimulatedDevice> {
    const account = await signUpByApi(env.server);
    await markOnboarded(env.server, account.token, account.profile.id);
    const device = await fixtures.simulatedDevice(account.profile.apiKey, { seed: 20 });
    return { ...device, ...(await fixtures.signedInUser({ account })) };
  }

  it('ticks the BASIC_TUTORIAL steps as the device sends a log and a screenshot and the user filters; the toggle reverts on failure', async () => {
    const { page, errors, simulator, device } = await start();
    await page.goto('/welcome-tour');
    await visible(page.getByRole('heading', { name: 'Welcome Tour' }));
    for (const step of ['Send first Log', 'Take screenshot', 'Open Mobile Debug menu', 'Filter Requests']) {
      expect(await stepBox(page, 'Basic Tutorial', step).isChecked()).toBe(false);
    }
    for (const step of ['Send network request', 'Inspect Payload', 'Enable Mock', 'Modify Response', 'Send request again']) {
      expect(await stepBox(page, 'Mocking Tutorial', step).isChecked()).toBe(false);
    }
    await screenshotBothSchemes(page, 'welcome-tour');

    await device.act('log');
    await simulator.flush();
    await waitChecked(page, 'Basic Tutorial', 'Send first Log');
    expect(await stepBox(page, 'Basic Tutorial', 'Take screenshot').isChecked()).toBe(false);
    await device.act('screenshot');
    await simulator.flush();
    await waitChecked(page, 'Basic Tutorial', 'Take screenshot');

    // The user filters the device's list.
    await page.goto(`/devices/${encodeURIComponent(device.installId)}`);
    const saved = answerOf(page, 'POST', '/user/welcome-tour/step', async () => {
      const search = await visible(page.getByRole('combobox', { name: 'Search' }).or(page.getByLabel('Search', { exact: true })).first());
      await search.fill('status:>=400');
      await search.press('Enter');
    });
    expect((await saved).request().postDataJSON()).toMatchObject({ tourId: 'BASIC_TUTORIAL', stepId: TOUR_EVENTS.filterUsed.stepId, stepData: { status: 'completed' } });
    await page.goto('/welcome-tour');
    await waitChecked(page, 'Basic Tutorial', 'Filter Requests');
    await expect.poll(() => page.getByRole('region', { name: 'Basic Tutorial' }).getByText('3 / 4').count()).toBe(1);
    await screenshotBothSchemes(page, 'welcome-tour-progress');

    // The debug window opened on the device completes its step (the server sees the command answered).
    await page.goto(`/devices/${encodeURIComponent(device.installId)}`);
    const opened = await answerOf(page, 'GET', `/devices/${device.installId}/open-spyglass-sheet`, () => page.getByRole('button', { name: 'Open Debug Window' }).click());
    expect(opened.status()).toBe(200);
    await page.goto('/welcome-tour');
    await waitChecked(page, 'Basic Tutorial', 'Open Mobile Debug menu');
    // Set back to pending by the user, for the toggle's own story below.
    const debugStep = page.getByRole('region', { name: 'Basic Tutorial' }).getByText('Open Mobile Debug menu', { exact: true });
    await debugStep.click();
    await waitChecked(page, 'Basic Tutorial', 'Open Mobile Debug menu', false);

    // A toggle the server refuses flips back, with the spec's message.
    await page.route('**/v1/user/welcome-tour/step', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await debugStep.click();
    await visible(page.getByText('Failed to update welcome tour step'));
    await waitChecked(page, 'Basic Tutorial', 'Open Mobile Debug menu', false);
    await page.unroute('**/v1/user/welcome-tour/step');
    // And one it accepts stays.
    await debugStep.click();
    await waitChecked(page, 'Basic Tutorial', 'Open Mobile Debug menu');
    // The only error is the refusal this test made.
    expect(errors.filter((e) => !e.includes('status of 500'))).toEqual([]);
  });

  it('walks the MOCKING_TUTORIAL with the guided overlay to the end, and its steps complete themselves', async () => {
    const { account, page, errors, simulator, device } = await start();
    await device.act('network');
    await simulator.flush();
    const { items } = RequestsPage.parse(await api(env.server.url, account, 'GET', `/requests?deviceId=${encodeURIComponent(device.installId)}`));
    const captured = items.find((item) => item.type === 'network')!;

    await page.goto('/welcome-tour');
    await waitChecked(page, 'Mocking Tutorial', 'Send network request');
    await page.getByRole('region', { name: 'Mocking Tutorial' }).getByRole('button', { name: 'Start guided tour' }).click();
    await page.waitForURL(`**/devices/${encodeURIComponent(device.installId)}`);
    const overlay = page.getByRole('dialog', { name: 'Guided tour' });
    await visible(overlay.getByText('Step 1 of 5'));
    expect(await overlay.getByRole('button', { name: 'Previous' }).count()).toBe(0);
    await visible(page.locator('.guided-highlight'));
    await screenshotBothSchemes(page, 'guided-overlay');

    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(overlay.getByText('Step 2 of 5'));
    // Previous goes back and forth.
    await overlay.getByRole('button', { name: 'Previous' }).click();
    await visible(overlay.getByText('Step 1 of 5'));
    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(overlay.getByText('Step 2 of 5'));

    // Next performs the step's action: the row is clicked, so its details open.
    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(page.getByRole('region', { name: 'Mock' }));
    await visible(overlay.getByText('Step 3 of 5'));
    const enabled = answerOf(page, 'PUT', `/devices/${device.installId}/requests/${captured.id}/mock`, () => overlay.getByRole('button', { name: 'Next' }).click());
    expect((await enabled).request().postDataJSON()).toMatchObject({ isMocked: true });
    await visible(overlay.getByText('Step 4 of 5'));
    await screenshotBothSchemes(page, 'guided-overlay-mock');

    // The step focuses the status field: the user types a new status.
    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(overlay.getByText('Step 5 of 5'));
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.type')).toBe('number');
    const modified = answerOf(page, 'PUT', `/devices/${device.installId}/requests/${captured.id}/mock`, async () => {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('418');
    });
    expect((await modified).request().postDataJSON()).toMatchObject({ statusCode: 418 });

    // The app sends the same request again: the mock answers it.
    const sendAgain = async () => (await device.client.fetch(captured.url!, { method: captured.method ?? 'GET' })).status;
    await expect.poll(sendAgain, { timeout: UI_TIMEOUT_MS * 2 }).toBe(418);
    await simulator.flush();
    await overlay.getByRole('button', { name: 'Finish' }).click();
    await expect.poll(() => overlay.count()).toBe(0);

    await page.goto('/welcome-tour');
    for (const step of ['Send network request', 'Inspect Payload', 'Enable Mock', 'Modify Response', 'Send request again']) {
      await waitChecked(page, 'Mocking Tutorial', step);
    }
    const tours = await api<WelcomeTour[]>(env.server.url, account, 'GET', '/user/welcome-tour');
    expect(tours.find((t) => t.id === 'MOCKING_TUTORIAL')!.steps.every((s) => s.status === 'completed')).toBe(true);
    await screenshotBothSchemes(page, 'welcome-tour-mocking-done');

    // Start over: every step pending again.
    await page.getByRole('region', { name: 'Mocking Tutorial' }).getByRole('button', { name: 'Start over' }).click();
    for (const step of ['Send network request', 'Inspect Payload', 'Enable Mock', 'Modify Response', 'Send request again']) {
      await waitChecked(page, 'Mocking Tutorial', step, false);
    }

    // Close ends the overlay at once.
    await page.getByRole('region', { name: 'Basic Tutorial' }).getByRole('button', { name: 'Start guided tour' }).click();
    await visible(overlay.getByText('Step 1 of 4'));
    await overlay.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => overlay.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  // Spec 001 'Welcome tour' says nothing of filters; a step that says an item 'shows up in this
  // list' must not point at a list filtered by the user's Network tab or search. The tour sets the
  // filter aside on screen only and hands it back when it ends.
  it('shows the whole request list on the steps about the list and gives the user filter back when the tour ends', async () => {
    const { account, page, errors, simulator, device } = await start();
    await device.act('log');
    await device.act('network');
    await simulator.flush();
    const savedFilter = async () => SettingsResponse.parse(await api(env.server.url, account, 'GET', '/user/settings')).settings.activeFilter;
    const filterButton = (name: string) => page.getByRole('group', { name: 'Filter by type' }).getByRole('button', { name, exact: true });
    const stats = (shown: number) => page.getByText(`Requests: ${shown} (Total: 2)`);
    const overlay = page.getByRole('dialog', { name: 'Guided tour' });
    const startGuide = async (tour: string) => {
      await page.goto('/welcome-tour');
      await page.getByRole('region', { name: tour }).getByRole('button', { name: 'Start guided tour' }).click();
      await page.waitForURL(`**/devices/${encodeURIComponent(device.installId)}`);
      await visible(overlay.getByText('Step 1 of 5'));
    };

    // The user keeps the Network tab: the log is hidden.
    await page.goto(`/devices/${encodeURIComponent(device.installId)}`);
    await visible(stats(2));
    await filterButton('Network').click();
    await visible(stats(1));
    await expect.poll(savedFilter).toBe('network');

    // Step 1 ('it shows up in this list') shows every item, All pressed; nothing is saved.
    await startGuide('Mocking Tutorial');
    await visible(stats(2));
    expect(await filterButton('All').getAttribute('aria-pressed')).toBe('true');
    await visible(page.locator('.req-row[data-type="log"]'));
    await screenshotBothSchemes(page, 'guided-overlay-whole-list');
    expect(await savedFilter()).toBe('network');
    // Closing the tour puts the Network tab back.
    await overlay.getByRole('button', { name: 'Close' }).click();
    await visible(stats(1));
    expect(await filterButton('Network').getAttribute('aria-pressed')).toBe('true');

    // A search typed on a step about the details is set aside when the user goes back to the
    // step that points at a network row, and comes back when the tour is closed.
    await filterButton('All').click();
    await expect.poll(savedFilter).toBe('all');
    await startGuide('Mocking Tutorial');
    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(overlay.getByText('Step 2 of 5'));
    await overlay.getByRole('button', { name: 'Next' }).click();
    await visible(overlay.getByText('Step 3 of 5'));
    const search = page.getByRole('combobox', { name: 'Search' }).or(page.getByRole('textbox', { name: 'Search' }));
    await search.fill('no-such-thing-anywhere');
    await search.press('Enter');
    await visible(page.getByText('No Search Results'));
    await overlay.getByRole('button', { name: 'Previous' }).click();
    await visible(overlay.getByText('Step 2 of 5'));
    await visible(stats(2));
    expect(await page.getByRole('button', { name: 'Remove no-such-thing-anywhere' }).count()).toBe(0);
    await visible(page.locator('.guided-highlight'));
    await overlay.getByRole('button', { name: 'Close' }).click();
    await visible(page.getByRole('button', { name: 'Remove no-such-thing-anywhere' }));
    await visible(page.getByText('No Search Results'));
    expect(errors).toEqual([]);
  });

  // Spec 001 'Welcome tour': the overlay highlights the step's target. The request list reaches the
  // window's right edge, and its highlight (6 px of room around the target) ran past it at 1440 px.
  // On a phone the sidebar is a closed drawer: steps 2-3, about the device's actions in it, dimmed
  // the page with nothing highlighted; the drawer now opens for them and closes after.
  it('keeps the highlight of every BASIC_TUTORIAL step inside the window, around its visible target, at 1280, 1440 and 390 px', async () => {
    const account = await signUpByApi(env.server);
    await markOnboarded(env.server, account.token, account.profile.id);
    const { simulator, device } = await fixtures.simulatedDevice(account.profile.apiKey, { seed: 20 });
    await device.act('log');
    await device.act('network');
    await simulator.flush();
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      const phone = viewport.width < 768;
      const { page, errors } = await fixtures.signedInUser({ account, context: { viewport } });
      const drawer = page.locator('.shell-drawer');
      await page.goto('/welcome-tour');
      await page.getByRole('region', { name: 'Basic Tutorial' }).getByRole('button', { name: 'Start guided tour' }).click();
      await page.waitForURL(`**/devices/${encodeURIComponent(device.installId)}`);
      const overlay = page.getByRole('dialog', { name: 'Guided tour' });
      for (const [index, target] of BASIC_TARGETS.entries()) {
        const step = index + 1;
        if (step > 1) await overlay.getByRole('button', { name: 'Next' }).click();
        await visible(overlay.getByText(`Step ${step} of 4`));
        const where = `${viewport.width} px, step ${step}`;
        await expectSettledHighlight(page, target, where);
        // The drawer is open for the steps about its buttons only.
        expect(await drawer.count(), where).toBe(phone && (step === 2 || step === 3) ? 1 : 0);
        if (step === 1) await screenshotBothSchemes(page, `guided-overlay-list-${viewport.width}`);
        if (step === 2 || step === 3) await screenshotBothSchemes(page, `guided-overlay-step-${step}-${viewport.width}`);
      }
      if (phone) {
        // Back to a step in the drawer and out of the tour: the drawer the tour opened closes.
        await overlay.getByRole('button', { name: 'Previous' }).click();
        await visible(overlay.getByText('Step 3 of 4'));
        await expect.poll(() => drawer.count()).toBe(1);
        await overlay.getByRole('button', { name: 'Close' }).click();
        await expect.poll(() => drawer.count()).toBe(0);
      } else {
        await overlay.getByRole('button', { name: 'Close' }).click();
      }
      expect(errors).toEqual([]);
    }
  });

  /**
   * A user at 1280x800 who hid a panel (its setting saved false), with a device's items; answers the
   * settings the page saves, the saved value, the guided tour's controls, and `shown`, which waits
   * for the panel and its top-bar toggle to say shown or hidden.
   */
  async function tourWithHiddenPanel(options: {
    setting: 'showSidebar' | 'showDetails'; acts: Array<'log' | 'network'>; tutorial: string; steps: number;
    panel: (page: Page) => Locator; toggle: string;
  }) {
    const account = await signUpByApi(env.server);
    await markOnboarded(env.server, account.token, account.profile.id);
    const { simulator, device } = await fixtures.simulatedDevice(account.profile.apiKey, { seed: 20 });
    for (const kind of options.acts) await device.act(kind);
    await simulator.flush();
    await api(env.server.url, account, 'POST', '/user/settings', { settings: { [options.setting]: false } });
    const savedSetting = async () => SettingsResponse.parse(await api(env.server.url, account, 'GET', '/user/settings')).settings[options.setting];
    const { page, errors } = await fixtures.signedInUser({ account, context: { viewport: { width: 1280, height: 800 } } });
    const saves: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/user/settings') saves.push(request.postDataJSON());
    });
    const panel = options.panel(page);
    const shown = async (expected: boolean, where: string) => {
      await expect.poll(() => panel.count(), { timeout: UI_TIMEOUT_MS, message: `${where}: ${options.toggle} ${expected ? 'shown' : 'hidden'}` }).toBe(expected ? 1 : 0);
      await visible(page.getByRole('button', { name: `${expected ? 'Hide' : 'Show'} ${options.toggle}`, exact: true }));
    };
    const overlay = page.getByRole('dialog', { name: 'Guided tour' });
    const atStep = (step: number) => visible(overlay.getByText(`Step ${step} of ${options.steps}`));
    const click = (name: string) => overlay.getByRole('button', { name, exact: true }).click();
    const startGuide = async () => {
      await page.goto('/welcome-tour');
      await page.getByRole('region', { name: options.tutorial }).getByRole('button', { name: 'Start guided tour' }).click();
      await page.waitForURL(`**/devices/${encodeURIComponent(device.installId)}`);
      await atStep(1);
    };
    return { page, errors, saves, savedSetting, overlay, atStep, click, startGuide, shown };
  }

  // Spec 001: the top bar's sidebar toggle, saved as the profile setting showSidebar. On a desktop
  // whose user hid the sidebar, steps 2-3 pointed at buttons that were not on the page: the page
  // dimmed with nothing highlighted. The sidebar now shows for those steps and hides again when the
  // tour leaves them, the saved setting untouched; the toggle hides it for the step without saving
  // (the setting already says hidden) and shows it again as the user's own, saved, choice.
  it('shows the sidebar a desktop user hid for the steps about its buttons, and hides it again without touching the setting', async () => {
    const { page, errors, saves, savedSetting: savedShowSidebar, overlay, atStep, click, startGuide, shown } = await tourWithHiddenPanel({
      setting: 'showSidebar', acts: ['log', 'network'], tutorial: 'Basic Tutorial', steps: 4,
      panel: (page) => page.locator('.shell-sidebar'), toggle: 'sidebar',
    });

    await startGuide();
    for (const [index, target] of BASIC_TARGETS.entries()) {
      const step = index + 1;
      if (step > 1) await click('Next');
      await atStep(step);
      const where = `1280 px, sidebar hidden, step ${step}`;
      await expectSettledHighlight(page, target, where);
      await shown(step === 2 || step === 3, where);
      if (step === 2 || step === 3) await screenshotBothSchemes(page, `guided-overlay-step-${step}-hidden-sidebar`);
    }
    // Back into the sidebar's steps and out of the tour, by Close and by Escape: hidden again.
    await click('Previous');
    await atStep(3);
    await shown(true, 'Previous to step 3');
    await click('Close');
    await expect.poll(() => overlay.count()).toBe(0);
    await shown(false, 'closed on step 3');
    await startGuide();
    await click('Next');
    await atStep(2);
    await shown(true, 'step 2 again');
    await page.keyboard.press('Escape');
    await expect.poll(() => overlay.count()).toBe(0);
    await shown(false, 'Escape on step 2');

    // The toggle hides the sidebar the tour showed, for that step only.
    await startGuide();
    await click('Next');
    await atStep(2);
    await shown(true, 'step 2, third tour');
    await page.getByRole('button', { name: 'Hide sidebar', exact: true }).click();
    await shown(false, 'hidden by the toggle on step 2');
    await click('Next');
    await atStep(3);
    await shown(true, 'step 3 after the toggle');
    await expectSettledHighlight(page, BASIC_TARGETS[2]!, 'step 3 after the toggle');
    await click('Close');
    await shown(false, 'closed on step 3, third tour');
    // Nothing of this was saved: the sidebar stays hidden after a reload.
    expect(saves).toEqual([]);
    expect(await savedShowSidebar()).toBe(false);
    await page.reload();
    await visible(page.getByRole('grid', { name: 'Requests' }));
    await shown(false, 'after a reload');

    // Hidden by the toggle, then shown by it again: the user's choice, saved, and it stays.
    await startGuide();
    await click('Next');
    await atStep(2);
    await page.getByRole('button', { name: 'Hide sidebar', exact: true }).click();
    await shown(false, 'hidden by the toggle, fourth tour');
    await page.getByRole('button', { name: 'Show sidebar', exact: true }).click();
    await shown(true, 'shown by the toggle');
    await click('Close');
    await shown(true, 'closed after the user showed it');
    await expect.poll(savedShowSidebar).toBe(true);
    expect(saves).toEqual([{ settings: { showSidebar: true } }]);
    expect(errors).toEqual([]);
  });

  // The same for the details panel (its top-bar toggle, saved as showDetails): MOCKING_TUTORIAL
  // steps 3-4 point at the mock editor in it and dimmed the page with nothing highlighted when the
  // user had hidden it. It shows for those steps and step 5 (whose field step 4 focused) only.
  it('shows the details panel a user hid for the steps about the mock editor, and hides it again without touching the setting', async () => {
    const { page, errors, saves, savedSetting: savedShowDetails, overlay, atStep, click, startGuide, shown } = await tourWithHiddenPanel({
      setting: 'showDetails', acts: ['network'], tutorial: 'Mocking Tutorial', steps: 5,
      panel: (page) => page.getByRole('region', { name: 'Details', exact: true }), toggle: 'details panel',
    });
    const editorTargets: Record<number, { selector: string }> = {
      3: { selector: 'section[aria-label="Mock"] .item-mock-toggle' },
      4: { selector: 'section[aria-label="Mock"] .item-mock-fields' },
    };

    await startGuide();
    await shown(false, 'step 1');
    for (const step of [2, 3, 4, 5]) {
      await click('Next');
      await atStep(step);
      const where = `1280 px, details hidden, step ${step}`;
      const target = editorTargets[step];
      if (target) await expectSettledHighlight(page, target, where);
      await shown(step >= 3, where);
      if (step === 3) await screenshotBothSchemes(page, 'guided-overlay-mock-hidden-details');
    }
    // Step 4 sent the user to the response's status: it is still there to type in.
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.type')).toBe('number');
    await click('Close');
    await expect.poll(() => overlay.count()).toBe(0);
    await shown(false, 'closed on step 5');

    // The toggle hides the panel the tour showed, for that step only, saving nothing.
    await startGuide();
    await click('Next');
    await click('Next');
    await atStep(3);
    await shown(true, 'step 3, second tour');
    await page.getByRole('button', { name: 'Hide details panel', exact: true }).click();
    await shown(false, 'hidden by the toggle on step 3');
    await click('Next');
    await atStep(4);
    await shown(true, 'step 4 after the toggle');
    await page.keyboard.press('Escape');
    await expect.poll(() => overlay.count()).toBe(0);
    await shown(false, 'Escape on step 4');
    expect(saves).toEqual([]);
    expect(await savedShowDetails()).toBe(false);
    await page.reload();
    await visible(page.getByRole('grid', { name: 'Requests' }));
    await shown(false, 'after a reload');
    expect(errors).toEqual([]);
  });
});
