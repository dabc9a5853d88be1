import { CapturedItem, CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, RequestsPage } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Issue 16, acceptance 3: a virtual device running the real SDK in the page. */
describe('device emulator', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('starts a device that appears in Devices, whose test log shows in its request list and which answers Send Ping and Take Screenshot', async () => {
    const { account, context, page: emulator, errors } = await fixtures.signedInUser();
    const headers = { authorization: `Bearer ${account.token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD };
    await emulator.goto('/device-emulator');
    await visible(emulator.getByRole('heading', { name: 'Device Emulator' }));
    await visible(emulator.getByRole('status', { name: 'Status' }).getByText('Offline'));
    await emulator.getByLabel('Name').fill('QA Emulator');
    await emulator.getByRole('button', { name: 'Start' }).click();
    await visible(emulator.getByRole('status', { name: 'Status' }).getByText('Online'));
    await emulator.getByRole('button', { name: 'Add Test Log' }).click();
    await visible(emulator.getByText('Log sent: Test log 1 from QA Emulator'));
    await emulator.getByRole('button', { name: 'Simulate Request' }).click();
    await visible(emulator.getByText('GET /healthz answered 200'));
    await screenshotBothSchemes(emulator, 'device-emulator');

    // The dashboard, in another tab: the emulated device is in Devices like any phone.
    const dashboard = await context.newPage();
    await dashboard.goto('/devices');
    const row = dashboard.locator('tr', { hasText: 'QA Emulator' });
    await visible(row.getByRole('img', { name: 'Online' }));
    await row.getByText('QA Emulator').click();
    await dashboard.waitForURL(/\/devices\/[^/]+$/);
    const deviceId = decodeURIComponent(new URL(dashboard.url()).pathname.split('/').pop()!);
    await visible(dashboard.getByText('Test log 1 from QA Emulator'));
    await visible(dashboard.getByText('/healthz?from=device-emulator'));

    const ping = await answerOf(dashboard, 'GET', `/devices/${deviceId}/send-ping`, () => dashboard.getByRole('button', { name: 'Send Ping' }).click());
    expect(ping.status()).toBe(200);
    await visible(dashboard.getByRole('row', { name: /Pong/ }));
    await visible(emulator.getByText('Command from the dashboard: ping'));

    const shot = await answerOf(dashboard, 'GET', `/devices/${deviceId}/take-screenshot`, () => dashboard.getByRole('button', { name: 'Take Screenshot' }).click());
    expect(shot.status()).toBe(200);
    const { itemId } = (await shot.json() as { data: { itemId: string } }).data;
    await visible(dashboard.getByText('Screenshot taken'));
    // The screenshot is a PNG of the emulated screen: 300 × 560 CSS pixels drawn at twice the size.
    await visible(dashboard.getByRole('row', { name: /QA Emulator screen/ }));
    const res = await fetch(`${env.server.url}/v1/requests/${encodeURIComponent(itemId)}`, { headers });
    const stored = CapturedItem.parse(await res.json());
    expect(stored.type).toBe('screenshot');
    const details = stored.details as { image: string; mimeType: string; width: number; height: number };
    expect(details).toMatchObject({ mimeType: 'image/png', width: 600, height: 1120 });
    const png = Buffer.from(details.image, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([600, 1120]);

    // User defaults are answered from the page's own store (localStorage, under the emulator's key).
    const set = await fetch(`${env.server.url}/v1/user-defaults`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId, name: 'standard', key: 'theme', value: 'dark' }),
    });
    expect(set.status).toBe(200);
    expect(JSON.parse((await emulator.evaluate<string | null>("localStorage.getItem('spyglass.emulator.userDefaults')"))!)).toEqual([
      { name: 'standard', entries: [{ key: 'theme', value: 'dark' }] },
    ]);

    // Open Debug Window shows the sheet on the emulated screen.
    await answerOf(dashboard, 'GET', `/devices/${deviceId}/open-spyglass-sheet`, () => dashboard.getByRole('button', { name: 'Open Debug Window' }).click());
    await visible(emulator.getByText('Command from the dashboard: open_sheet'));

    // Stop takes the device offline; the items stay.
    await emulator.getByRole('button', { name: 'Stop' }).click();
    await visible(dashboard.getByText('Device is offline - Some features may not work.'));
    const items = RequestsPage.parse(await (await fetch(`${env.server.url}/v1/requests?deviceId=${encodeURIComponent(deviceId)}`, { headers })).json()).items;
    expect(items.map((item) => item.type).sort()).toEqual(['log', 'log', 'network', 'screenshot']);
    expect(errors).toEqual([]);
  });
});
