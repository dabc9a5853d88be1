import { SAMPLE_DEVICE_ID, SAMPLE_ITEM_COUNT } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Spec 000 §2.3 and §6 (issue 21 acceptance 2). Google is configured, so hiding it is demo mode's doing. */
describe('demo mode (DEMO_MODE=1)', () => {
  const env = useE2eEnvironment({ env: { DEMO_MODE: '1', GOOGLE_CLIENT_ID: 'demo-test.apps.googleusercontent.com' } });

  it('signs a visitor in as a demo user with the sample device, with no Google button, mode toggle or account editing', async () => {
    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      await page.goto('/');
      await page.waitForURL('**/devices', { timeout: 30_000 });
      expect(await page.evaluate<boolean>("JSON.parse(localStorage.getItem('profile') ?? '{}').isDemoUser === true")).toBe(true);
      const sample = page.locator('tbody tr').filter({ hasText: 'Sample iPhone' });
      await visible(sample);
      await sample.click();
      await page.waitForURL(`**/devices/${SAMPLE_DEVICE_ID}`);
      await expect.poll(() => page.locator('.req-row').count(), { timeout: 15_000 }).toBe(SAMPLE_ITEM_COUNT);
      await screenshotBothSchemes(page, 'demo-mode-sample-device');

      // No account editing for a demo user.
      await page.goto('/settings');
      await visible(page.getByRole('region', { name: 'General' }));
      expect(await page.getByRole('region', { name: 'Account' }).count()).toBe(0);
      for (const name of ['Edit Email', 'Change Password', 'Delete Account']) expect(await page.getByRole('button', { name }).count()).toBe(0);

      // The sign-in form (how a real account still signs in on a demo server): no Google, no toggle.
      const visitor = await context.browser()!.newContext({ baseURL: env.server.url });
      const form = await visitor.newPage();
      // Asserted once the page has the server's configuration: before it, nothing is shown either way.
      const configRead = form.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/config'));
      await form.goto('/signin');
      await configRead;
      await form.evaluate('new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))');
      await visible(form.getByRole('button', { name: 'Sign In', exact: true }));
      expect(await form.locator('.google-signin').count()).toBe(0);
      expect(await form.getByRole('link', { name: 'Sign up' }).count()).toBe(0);
      await visitor.close();
    } finally {
      await context.close();
    }
  });
});
