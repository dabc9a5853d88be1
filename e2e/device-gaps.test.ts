import { DEVICE_LIMIT } from '@spyglass/protocol';
import { createSpyglass, memoryStorage, type SpyglassClient } from '@spyglass/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { TestDevice } from '../apps/server/test/device-protocol-client';
import { registerDeviceOnHello } from '../apps/server/src/repositories/devices.repository';
import { signUpByApi } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';
import { openServerDatabase } from './support/server';

/** Issue 16, device gaps: the device-limit message, the breakpoint switch, Learn More. */
describe('device gaps', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);
  const clients: SpyglassClient[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.stop())));

  it('shows the device-limit message when a device is refused for it', async () => {
    const account = await signUpByApi(env.server);
    const database = await openServerDatabase(env.server);
    try {
      for (let i = 0; i < DEVICE_LIMIT; i++) await registerDeviceOnHello(database.db, account.profile.id, `full-${i}`, { platform: 'android' }, Date.now());
    } finally {
      await database.close();
    }
    const { page } = await fixtures.signedInUser({ account });
    await page.goto('/devices');
    await visible(page.getByText('full-0'));
    const extra = await TestDevice.connect(env.server.url);
    extra.hello(account.profile.apiKey, 'one-too-many');
    await visible(page.getByText('Maximum number of devices reached: Please contact support to increase your limit'));
    await screenshotBothSchemes(page, 'device-limit-toast');
    await extra.closed;
  });

  it('switches breakpoints on in the device profile, which reaches the SDK, and Learn More opens the SDK quick start', async () => {
    const account = await signUpByApi(env.server);
    const client = createSpyglass({
      serverUrl: env.server.url, apiKey: account.profile.apiKey, storage: memoryStorage(),
      device: { platform: 'ios', name: 'Breakpoint iPhone' }, capture: { fetch: false, xhr: false, http: false },
    });
    clients.push(client);
    await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto(`/devices/${client.deviceId!}`);
    await (await visible(page.getByRole('button', { name: 'Breakpoint iPhone: open the device profile' }))).click();
    const profile = await visible(page.getByRole('dialog', { name: 'Device Profile' }));
    const breakpoints = profile.getByRole('switch', { name: 'Breakpoints' });
    expect(await breakpoints.isChecked()).toBe(false);
    const saved = await answerOf(page, 'POST', `/devices/${client.deviceId!}/breakpoint`, () =>
      profile.locator('label', { has: page.getByRole('switch', { name: 'Breakpoints' }) }).click());
    expect(saved.request().postDataJSON()).toEqual({ breakpointEnabled: true });
    await expect.poll(() => client.breakpointEnabled).toBe(true);
    expect(await breakpoints.isChecked()).toBe(true);
    await screenshotBothSchemes(page, 'device-profile-breakpoints');
    await page.keyboard.press('Escape');

    // The empty list's Learn More opens the SDK's quick start, served by Spyglass.
    await (await visible(page.getByRole('link', { name: 'Learn More' }))).click();
    await page.waitForURL('**/docs/sdk');
    await visible(page.getByRole('heading', { name: '@spyglass/sdk' }));
    await visible(page.getByRole('heading', { name: 'User defaults' }));
    await screenshotBothSchemes(page, 'docs-sdk');
    expect(errors).toEqual([]);
  });
});
