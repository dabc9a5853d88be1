import type { CompactItem } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { signInWithForm, signUpByApi } from './support/accounts';
import { storedItems } from './support/api';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

const countOf = (items: CompactItem[], type: CompactItem['type']) => items.filter((item) => item.type === type).length;

/** Issue 4, acceptance 3: a device connected by the simulator, seen, pinged, configured and deleted from the dashboard. */
describe('devices', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  it('connects a simulated device, pings it, switches off its logs and deletes it', async () => {
    const account = await signUpByApi(env.server);
    const { page, errors } = await fixtures.browserPage();
    await signInWithForm(page, account.email, account.password);
    await visible(page.getByRole('heading', { name: /^Devices/ }));

    // The connect screen shows the key the simulator then connects with.
    await page.getByRole('link', { name: 'Add new device' }).first().click();
    await page.waitForURL('**/devices/new');
    await visible(page.getByText('Waiting for devices to connect...'));
    const apiKey = (await (await visible(page.getByLabel('API Key', { exact: true }))).innerText()).trim();
    expect(apiKey).toBe(account.profile.apiKey);

    const { simulator, device, deviceId } = await fixtures.simulatedDevice(apiKey, { platforms: ['ios'], seed: 4 });
    const name = device.info.name!;
    await visible(page.getByText('New device connected!'));

    // Online in the list; a click opens it.
    await page.getByRole('link', { name: 'All devices' }).click();
    const row = page.locator(`tr[data-device-id="${deviceId}"]`);
    await visible(row.getByRole('img', { name: 'Online' }));
    await row.getByText(name).click();
    await page.waitForURL(`**/devices/${deviceId}`);
    const header = await visible(page.getByRole('button', { name: `${name}: open the device profile` }));
    await visible(header.getByRole('img', { name: 'Online' }));
    expect(await page.getByText('Device is offline - Some features may not work.').count()).toBe(0);
    await visible(page.getByText('No Requests yet'));
    await screenshotBothSchemes(page, 'device-dashboard-empty');

    // Traffic before any toggle: every kind lands and shows in the requests view as it comes.
    for (const kind of ['network', 'network', 'log', 'event', 'analytics', 'network'] as const) await device.act(kind);
    await simulator.flush();
    const before = await storedItems(env.server, account.token, deviceId);
    expect(countOf(before, 'log')).toBe(1);
    await visible(page.getByText(`Requests: ${before.length} (Total: ${before.length})`));

    // Send Ping reaches the device, whose pong is stored.
    const ping = await answerOf(page, 'GET', `/devices/${deviceId}/send-ping`, () => page.getByRole('button', { name: 'Send Ping' }).click());
    expect(ping.status()).toBe(200);
    await visible(page.getByText('Ping received by the device'));
    await simulator.flush();
    const afterPing = await storedItems(env.server, account.token, deviceId);
    const pong = afterPing.find((item) => item.type === 'log' && item.details.message === 'Pong');
    expect(pong, 'the pong log item is stored').toBeDefined();
    await visible(page.getByRole('row', { name: /Pong/ }));
    await screenshotBothSchemes(page, 'device-dashboard');

    // The other remote actions are answered by the device too.
    const shot = await answerOf(page, 'GET', `/devices/${deviceId}/take-screenshot`, () => page.getByRole('button', { name: 'Take Screenshot' }).click());
    expect(shot.status()).toBe(200);
    await visible(page.getByText('Screenshot taken'));
    const sheet = await answerOf(page, 'GET', `/devices/${deviceId}/open-spyglass-sheet`, () => page.getByRole('button', { name: 'Open Debug Window' }).click());
    expect(sheet.status()).toBe(200);
    await visible(page.getByText('Debug window opened'));
    await simulator.flush();
    const afterCommands = await storedItems(env.server, account.token, deviceId);
    expect(countOf(afterCommands, 'screenshot')).toBe(countOf(afterPing, 'screenshot') + 1);
    // The simulated app logs the opening of its sheet.
    expect(afterCommands.some((item) => item.type === 'log' && item.details.message === 'Spyglass sheet opened')).toBe(true);

    // Switching logs off in the profile saves the whole device, and the SDK captures no more logs.
    await header.click();
    const profile = await visible(page.getByRole('dialog', { name: 'Device Profile' }));
    await visible(profile.getByText(device.info.bundleId!));
    const logs = profile.getByRole('switch', { name: 'Logs' });
    expect(await logs.isChecked()).toBe(true);
    const toggleTrack = (label: string) => profile.locator('label', { has: page.getByRole('switch', { name: label }) });

    // A save the server refuses puts the switch back.
    const events = profile.getByRole('switch', { name: 'Events' });
    await page.route(`**/v1/devices/${deviceId}`, (route) => route.request().method() === 'PUT'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal Server Error' }) })
      : route.fallback());
    await toggleTrack('Events').click();
    await visible(page.getByText('Failed to update device'));
    await expect.poll(() => events.isChecked()).toBe(true);
    await page.unroute(`**/v1/devices/${deviceId}`);
    expect(await profile.getByRole('switch', { name: 'Prints' }).count()).toBe(1);
    // The switch's track covers its (transparent) input: the user clicks the track.
    const save = await answerOf(page, 'PUT', `/devices/${deviceId}`, () => toggleTrack('Logs').click());
    expect(save.status()).toBe(200);
    expect(save.request().postDataJSON()).toMatchObject({ id: deviceId, featureToggles: { logs: false, network: true, prints: true, events: true } });
    await visible(page.getByText('Device updated'));
    expect(await logs.isChecked()).toBe(false);
    await expect.poll(() => device.client.featureToggles.logs).toBe(false);
    await screenshotBothSchemes(page, 'device-profile');
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });

    await device.act('log');
    await device.act('event');
    await simulator.flush();
    const afterToggle = await storedItems(env.server, account.token, deviceId);
    expect(countOf(afterToggle, 'log'), 'no log captured once logs are off').toBe(countOf(afterCommands, 'log'));
    expect(countOf(afterToggle, 'event'), 'events still captured').toBe(countOf(afterCommands, 'event') + 1);
    expect(device.client.stats().skipped).toBeGreaterThan(0);

    // The device going away shows at once on its dashboard.
    await simulator.stop();
    await visible(page.getByText('Device is offline - Some features may not work.'));
    await visible(header.getByRole('img', { name: 'Offline' }));
    await screenshotBothSchemes(page, 'device-dashboard-offline');
    const offlinePing = await answerOf(page, 'GET', `/devices/${deviceId}/send-ping`, () => page.getByRole('button', { name: 'Send Ping' }).click());
    expect(offlinePing.status()).toBe(409);
    await visible(page.getByText('Device is offline', { exact: true }));

    // Delete asks first, then the list no longer has it.
    // A refused delete says so and keeps the device.
    await page.route(`**/v1/devices/${deviceId}`, (route) => route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal Server Error' }) })
      : route.fallback());
    await page.getByRole('button', { name: 'Delete Device' }).click();
    await (await visible(page.getByRole('dialog', { name: 'Delete Device' }))).getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.getByText('Failed to delete device'));
    expect(page.url()).toContain(`/devices/${deviceId}`);
    await page.unroute(`**/v1/devices/${deviceId}`);

    await page.getByRole('button', { name: 'Delete Device' }).click();
    const confirm = await visible(page.getByRole('dialog', { name: 'Delete Device' }));
    await visible(confirm.getByText(`Are you sure you want to delete ${name}? This action cannot be undone.`));
    const removal = await answerOf(page, 'DELETE', `/devices/${deviceId}`, () => confirm.getByRole('button', { name: 'Delete', exact: true }).click());
    expect(removal.status()).toBe(200);
    await visible(page.getByText('Device deleted successfully'));
    await page.waitForURL(/\/devices$/);
    await visible(page.getByRole('heading', { name: /^Devices/ }));
    expect(await page.locator(`tr[data-device-id="${deviceId}"]`).count()).toBe(0);
    const listed = await fetch(`${env.server.url}/v1/devices`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(((await listed.json()) as Array<{ id: string }>).map((d) => d.id)).not.toContain(deviceId);
    // Only the failures provoked above (two refused saves, the offline ping) were logged.
    expect(errors.filter((e) => !/status of (500|409)/.test(e))).toEqual([]);
  });

  it('answers an unknown device with Device not found, and an unknown view with Page Not Found', async () => {
    const { account, page } = await fixtures.signedInUser();
    await page.goto('/devices/no-such-device');
    await visible(page.getByRole('heading', { name: 'Device not found' }));
    await page.getByRole('link', { name: 'Go to devices' }).click();
    await page.waitForURL(/\/devices$/);

    const { device } = await fixtures.simulatedDevice(account.profile.apiKey, { platforms: ['android'], seed: 9 });
    await page.goto(`/devices/${device.installId}/no-such-view`);
    await visible(page.getByRole('heading', { name: 'Page Not Found' }));
    // Requests is the view with nothing after the device id, and under its own name.
    await page.goto(`/devices/${device.installId}/requests`);
    const requestsLink = await visible(page.getByRole('link', { name: 'Requests', exact: true }));
    expect(await requestsLink.getAttribute('aria-current')).toBe('page');
    await requestsLink.click();
    await page.waitForURL(new RegExp(`/devices/${device.installId}$`));
    expect(await requestsLink.getAttribute('aria-current')).toBe('page');

    // An Android device has no Prints toggle (iOS only).
    await (await visible(page.getByRole('button', { name: `${device.info.name!}: open the device profile` }))).click();
    const profile = await visible(page.getByRole('dialog', { name: 'Device Profile' }));
    await visible(profile.getByRole('switch', { name: 'Network' }));
    expect(await profile.getByRole('switch', { name: 'Prints' }).count()).toBe(0);
    await visible(profile.getByText(device.info.manufacturer!));
  });
});
