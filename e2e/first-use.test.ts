import { describe, expect, it } from 'vitest';
import { apiHeaders, storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Rough spots a first-time user met walking through the product in Chromium (sign-up to sharing). */
describe('first use', () => {
  const env = useE2eEnvironment();
  const story = useStoryFixtures(env);

  it('counts one saved request as "1 request" in the session list', async () => {
    const { page, errors, account, device, deviceId, simulator } = await story.signedInWithDevice();
    await device.act('network');
    await device.act('network');
    await simulator.flush();
    const items = await storedItems(env.server, account.token, deviceId);
    expect(items).toHaveLength(2);
    for (const [name, ids] of [['One', [items[0]!.id]], ['Two', items.map((item) => item.id)]] as const) {
      const res = await fetch(`${env.server.url}/v1/sessions`, {
        method: 'POST',
        headers: { ...apiHeaders(account.token), 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId, name, requestIds: ids }),
      });
      expect(res.status).toBe(201);
    }
    await page.goto('/sessions');
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    expect(await (await visible(row('One'))).locator('.sessions-count').innerText()).toBe('1 request');
    expect(await row('Two').locator('.sessions-count').innerText()).toBe('2 requests');
    await screenshotBothSchemes(page, 'first-use-session-counts');
    expect(errors).toEqual([]);
  });

  it('gives the device list\'s Last Seen the full time as the app writes times, 24 hours with milliseconds', async () => {
    const { page, errors } = await story.signedInWithDevice();
    await page.goto('/devices');
    const lastSeen = await visible(page.getByRole('row').locator('time').first());
    expect(await lastSeen.innerText()).toBe('just now');
    // Was the browser's locale form ('11/26/2026, 12:30:56 PM'); spec 001 §9.
    expect(await lastSeen.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(errors).toEqual([]);
  });
});
