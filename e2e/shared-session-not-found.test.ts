import { describe, expect, it } from 'vitest';
import { SESSION_MESSAGES } from '@spyglass/protocol';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/**
 * A public link to a session that is not (or no longer) shared, opened by someone signed out: the
 * spec's message under the product's name, and a way to the product.
 */
describe('shared session not found', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('shows the product and Return to Home on the share host, leading to the dashboard', async () => {
    const context = await newContext(env.browser, env.server.shareUrl);
    try {
      const page = await context.newPage();
      await page.goto('/shared-sessions/NoSuchSession1');
      await visible(page.getByRole('heading', { name: SESSION_MESSAGES.sharedNotFound }));
      const brand = await visible(page.getByRole('banner').getByRole('link', { name: 'Spyglass home' }));
      expect(await brand.getAttribute('href')).toBe(`${env.server.url}/`);
      await screenshotBothSchemes(page, 'shared-session-not-found');
      await page.getByRole('link', { name: 'Return to Home' }).click();
      // The dashboard's home; signed out, it asks to sign in.
      await page.waitForURL((url) => url.origin === new URL(env.server.url).origin);
    } finally {
      await context.close();
    }
  });

  it('keeps the visitor on the dashboard host when the link was opened there', async () => {
    const { page, errors } = await fixtures.browserPage();
    await page.goto('/shared-sessions/NoSuchSession2');
    await visible(page.getByRole('heading', { name: SESSION_MESSAGES.sharedNotFound }));
    await visible(page.getByRole('banner').getByRole('link', { name: 'Spyglass home' }));
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    // The share host's 404 for data.json is the page's answer; nothing else failed.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
});
