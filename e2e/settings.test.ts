import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleIdentityProvider, type GoogleIdentityProvider } from '../apps/server/test/support/google-jwks';
import { markOnboarded, setUserFacts, signedInContext, signInWithForm, signUpByApi, uniqueEmail } from './support/accounts';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Settings as other kinds of users see them (spec 000 §2.5). */
describe('settings of an admin', () => {
  const env = useE2eEnvironment();

  it('offers Debug, whose test error shows the error panel', async () => {
    const account = await signUpByApi(env.server);
    // No screen grants the admin role: an operator sets it.
    await setUserFacts(env.server, account.email, { is_admin: 1 });

    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      await signInWithForm(page, account.email, account.password);
      await page.waitForURL('**/devices');

      await page.goto('/settings');
      const debug = await visible(page.getByRole('region', { name: 'Debug' }));
      await debug.getByRole('button', { name: 'Throw Test Error' }).click();
      await visible(page.getByRole('heading', { name: 'Something went wrong' }));
      await visible(page.getByText('Test error from Settings → Debug'));

      await page.getByRole('button', { name: 'Refresh Page' }).click();
      await visible(page.getByRole('region', { name: 'Debug' }));
    } finally {
      await context.close();
    }
  });
});

describe('settings on a demo-mode server', () => {
  const env = useE2eEnvironment({ env: { DEMO_MODE: '1' } });

  it('hide email edit, password change and account deletion', async () => {
    const demo = await fetch(`${env.server.url}/v1/user/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timezone: 'Europe/Berlin' }),
    });
    expect(demo.status).toBe(200);
    const { email, password } = (await demo.json()) as { email: string; password: string };

    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      await signInWithForm(page, email, password);
      await page.waitForURL('**/devices');
      await page.goto('/settings');
      await visible(page.getByRole('region', { name: 'General' }));
      await visible(page.getByRole('region', { name: 'Version' }));
      expect(await page.getByRole('region', { name: 'Account' }).count()).toBe(0);
      for (const name of ['Edit Email', 'Change Password', 'Delete Account']) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

describe('settings of a Google account', () => {
  let google: GoogleIdentityProvider;
  beforeAll(async () => {
    google = await startGoogleIdentityProvider();
  });
  afterAll(() => google?.close());
  const env = useE2eEnvironment(() => ({ env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl } }));

  it('offer no password change (spec 000 §2.5: only when authProvider is email)', async () => {
    const email = uniqueEmail('google');
    const signIn = await fetch(`${env.server.url}/v1/auth/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: await google.signIdToken({ email }) }),
    });
    expect(signIn.status).toBe(200);
    const { token, profile } = (await signIn.json()) as { token: string; profile: { id: string; authProvider: string } };
    expect(profile.authProvider).toBe('google');
    await markOnboarded(env.server, token, profile.id);

    const { context, page } = await signedInContext(env.browser, env.server, { token });
    try {
      await page.goto('/settings');
      const account = await visible(page.getByRole('region', { name: 'Account' }));
      await visible(account.getByRole('button', { name: 'Edit Email' }));
      await visible(account.getByRole('button', { name: 'Delete Account' }));
      expect(await account.getByRole('button', { name: 'Change Password' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('settings switches and the usage chart', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);
  const isChecked = (control: Locator) => control.evaluate((input) => (input as unknown as { checked: boolean }).checked);

  it('flips each switch by a click on its label, and labels both axes of the usage chart', async () => {
    const account = await signUpByApi(env.server);
    const simulator = await fixtures.simulator(account.profile.apiKey, { rate: 20, seed: 5, mix: { screenshot: 0 } });
    await expect.poll(() => simulator.stats().sdk.acknowledged, { timeout: 30_000 }).toBeGreaterThan(20);
    await simulator.stop();
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto('/settings');
    const usage = await visible(page.getByRole('region', { name: 'Usage' }));

    const hourly = usage.getByRole('switch', { name: 'Hourly' });
    expect(await isChecked(hourly)).toBe(false);
    await usage.getByText('Hourly', { exact: true }).click();
    expect(await isChecked(hourly)).toBe(true);
    await expect.poll(() => usage.locator('.usage-chart').getAttribute('data-bars')).toBe(String(24 * 30));
    await visible(usage.getByText('Requests per hour'));
    await usage.getByText('Hourly', { exact: true }).click();
    expect(await isChecked(hourly)).toBe(false);

    // Requests up the side, from 0; days along the bottom, today last.
    await visible(usage.getByText('Requests per day'));
    const yLabels = await usage.locator('.usage-y-tick').allInnerTexts();
    expect(yLabels[0]).toBe('0');
    expect(yLabels.length).toBeGreaterThanOrEqual(2);
    const xLabels = await usage.locator('.usage-x-tick').allInnerTexts();
    expect(xLabels).toHaveLength(5);
    expect(xLabels.at(-1)).toBe(await page.evaluate(() => new Date().toLocaleString(undefined, { month: 'short', day: 'numeric' })));
    // Every label is inside the chart's card: none cut at its edges.
    const card = (await usage.boundingBox())!;
    for (const tick of await usage.locator('.usage-x-tick, .usage-y-tick').all()) {
      const box = (await tick.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(card.x);
      expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width);
    }
    await usage.scrollIntoViewIfNeeded();
    await screenshotBothSchemes(page, 'settings-usage-axes');

    const settings = page.getByRole('region', { name: 'Settings' });
    const report = settings.getByRole('switch', { name: 'Weekly usage report' });
    const before = await isChecked(report);
    const saved = await answerOf(page, 'POST', '/user/settings', () => settings.getByText('Weekly usage report', { exact: true }).click());
    expect(saved.request().postDataJSON()).toEqual({ settings: { wantsUsageReport: !before } });
    expect(await isChecked(report)).toBe(!before);
    expect(errors).toEqual([]);
  });
});
