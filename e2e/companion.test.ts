import { describe, expect, it } from 'vitest';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** A phone as Chromium plays one. */
const IPHONE = {
  viewport: { width: 390, height: 844 },
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

/** Issue 16, acceptance 4: the connect screen's QR link opens the web companion on a phone, which connects. */
describe('web companion', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('opens the QR link on a phone, connects it as a device, and the connect screen says New device connected!', async () => {
    const { account, page: connect } = await fixtures.signedInUser();
    await connect.goto('/devices/new');
    await visible(connect.getByText('Waiting for devices to connect...'));
    const link = await connect.getByTestId('companion-link').getAttribute('href');
    expect(link).toBeTruthy();
    const url = new URL(link!);
    expect(url.pathname).toBe('/companion');
    expect(url.searchParams.get('api-key')).toBe(account.profile.apiKey);
    // Store links only when configured: this server has none.
    expect(await connect.getByRole('link', { name: 'App Store' }).count()).toBe(0);
    expect(await connect.getByRole('link', { name: 'Google Play' }).count()).toBe(0);
    await screenshotBothSchemes(connect, 'connect-screen');

    // The phone: not signed in, a mobile viewport, the link as the camera opens it.
    const { page: phone, errors } = await fixtures.browserPage(IPHONE);
    await phone.goto(url.toString());
    await visible(phone.getByRole('status', { name: 'Status' }).getByText('Connected'));
    await visible(connect.getByText('New device connected!'));
    await visible(connect.getByText('iPhone'));

    // Its name can be changed, its test log and its own request are captured.
    await phone.getByLabel('Device name').fill('Anna’s iPhone');
    await phone.getByRole('button', { name: 'Save' }).click();
    await phone.getByRole('button', { name: 'Send Test Log' }).click();
    await visible(phone.getByText('Log sent: Test log 1 from Anna’s iPhone'));
    await phone.getByRole('button', { name: 'Send Test Request' }).click();
    await visible(phone.getByText('GET /healthz answered 200'));
    await screenshotBothSchemes(phone, 'companion');

    const devices = await connect.context().newPage();
    await devices.goto('/devices');
    const row = devices.locator('tr', { hasText: 'Anna’s iPhone' });
    await visible(row.getByRole('img', { name: 'Online' }));
    await row.getByText('Anna’s iPhone').click();
    await visible(devices.getByText('Test log 1 from Anna’s iPhone'));
    await visible(devices.getByText('/healthz?from=companion'));
    expect(errors).toEqual([]);
  });
});

/** Option 1's store links appear only on a server configured with them, and each click is counted. */
describe('connect screen store links', () => {
  const env = useE2eEnvironment({ env: { APP_STORE_URL: 'https://apps.example.test/spyglass', GOOGLE_PLAY_URL: 'https://play.example.test/spyglass' } });
  const fixtures = useStoryFixtures(env);

  it('shows App Store and Google Play, and tracks them and the full setup guide', async () => {
    const { context, page } = await fixtures.signedInUser();
    // The store pages are not reachable from the test machine: the new tabs are answered locally.
    await context.route(/example\.test/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' }));
    await page.goto('/devices/new');
    const tracked = (eventType: string) => page.waitForRequest((r) =>
      new URL(r.url()).pathname === '/v1/analytics/track' && (r.postDataJSON() as { eventType: string }).eventType === eventType);
    const appStore = await visible(page.getByRole('link', { name: 'App Store' }));
    expect(await appStore.getAttribute('href')).toBe('https://apps.example.test/spyglass');
    await Promise.all([tracked('download_app_store'), appStore.click()]);
    await Promise.all([tracked('download_google_play'), page.getByRole('link', { name: 'Google Play' }).click()]);
    await screenshotBothSchemes(page, 'connect-screen-store-links');
    await Promise.all([tracked('view_full_setup_guide'), page.getByRole('link', { name: 'View full setup guide' }).click()]);
    await page.waitForURL('**/docs/sdk');
  });
});
