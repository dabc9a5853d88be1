import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSpyglass, memoryStorage, type SpyglassClient } from '@spyglass/sdk';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpByApi, type TestAccount } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, dragBy, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Replaces a CodeMirror editor's text the way a user does: focus, select all, type. */
async function typeInEditor(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press('ControlOrMeta+A');
  await editor.page().keyboard.insertText(text);
}

/** Issue 16, acceptance 1: the User Defaults view of an iOS device running the SDK. */
describe('user defaults', () => {
  const env = useE2eEnvironment();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-e2e-defaults-'));
  const file = path.join(dir, 'user-defaults.json');
  let account: TestAccount;
  let client: SpyglassClient;
  const fixtures = useStoryFixtures(env);

  beforeAll(async () => {
    account = await signUpByApi(env.server);
    client = createSpyglass({
      serverUrl: env.server.url, apiKey: account.profile.apiKey, storage: memoryStorage(), userDefaultsFile: file,
      device: { platform: 'ios', name: 'Defaults iPhone', model: 'iPhone16,1', systemName: 'iOS', systemVersion: '18.1' },
      capture: { fetch: false, xhr: false, http: false },
    });
    await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
    await client.userDefaults.set('apiToken', 'abc123');
    await client.userDefaults.set('onboardingDone', false);
    await client.userDefaults.set('lastUser', { id: 7, name: 'Ann' }, 'group.com.example.shared');
  });
  afterAll(async () => {
    await client?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = () => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const cell = (page: Page, name: string, key: string, column: 'Name' | 'Key' | 'Value') =>
    page.getByRole('row').filter({ has: page.getByRole('button', { name: `Delete ${name} / ${key}` }) }).getByRole('cell').nth(['Name', 'Key', 'Value'].indexOf(column));

  it('lists the groups, edits, renames, deletes and edits JSON on the device, and shows the app’s own change live', async () => {
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto(`/devices/${client.deviceId!}`);
    await (await visible(page.getByRole('link', { name: 'User Defaults' }))).click();
    await page.waitForURL(`**/devices/${client.deviceId!}/user-defaults`);

    // The groups, sorted by name.
    await visible(cell(page, 'group.com.example.shared', 'lastUser', 'Value'));
    expect(await page.getByRole('row').allInnerTexts()).toHaveLength(4);
    expect(await cell(page, 'group.com.example.shared', 'lastUser', 'Value').innerText()).toBe('{"id":7,"name":"Ann"}');
    await screenshotBothSchemes(page, 'user-defaults');

    // Edit a value: double-click, type, leave the field.
    await cell(page, 'standard', 'apiToken', 'Value').dblclick();
    const valueField = page.getByLabel('Value of standard / apiToken');
    await valueField.fill('xyz789');
    await answerOf(page, 'POST', '/user-defaults', () => valueField.press('Enter'));
    await expect.poll(() => client.userDefaults.get('apiToken')).toBe('xyz789');
    await visible(page.getByRole('region', { name: 'Console' }).getByText('Updated standard / apiToken = xyz789'));

    // A boolean keeps its kind.
    await cell(page, 'standard', 'onboardingDone', 'Value').dblclick();
    await page.getByLabel('Value of standard / onboardingDone').fill('true');
    await answerOf(page, 'POST', '/user-defaults', () => page.getByLabel('Value of standard / onboardingDone').press('Enter'));
    expect(await client.userDefaults.get('onboardingDone')).toBe(true);

    // Rename a key: the old entry goes, the new one holds the value.
    await cell(page, 'standard', 'apiToken', 'Key').dblclick();
    const keyField = page.getByLabel('Key of standard / apiToken');
    await keyField.fill('authToken');
    const renamed = await answerOf(page, 'PUT', '/user-defaults', () => keyField.press('Enter'));
    expect(renamed.status()).toBe(200);
    expect(await client.userDefaults.get('apiToken')).toBeUndefined();
    expect(await client.userDefaults.get('authToken')).toBe('xyz789');
    await visible(cell(page, 'standard', 'authToken', 'Key'));

    // Edit JSON in the modal: ctrl in the value field opens it, closing saves.
    await cell(page, 'group.com.example.shared', 'lastUser', 'Value').dblclick();
    await page.getByLabel('Value of group.com.example.shared / lastUser').press('Control');
    const dialog = await visible(page.getByRole('dialog', { name: 'group.com.example.shared / lastUser' }));
    const editor = dialog.locator('.cm-content[aria-label="JSON value"]');
    await visible(editor);
    await typeInEditor(editor, '{"id":8,"name":"Bob","roles":["admin"]}');
    await screenshotBothSchemes(page, 'user-defaults-json-modal');
    await answerOf(page, 'POST', '/user-defaults', () => dialog.getByRole('button', { name: 'Close' }).click());
    expect(await client.userDefaults.get('lastUser', 'group.com.example.shared')).toEqual({ id: 8, name: 'Bob', roles: ['admin'] });

    // Delete an entry.
    await answerOf(page, 'DELETE', '/user-defaults', () => page.getByRole('button', { name: 'Delete standard / onboardingDone' }).click({ force: true }));
    expect(await client.userDefaults.get('onboardingDone')).toBeUndefined();
    await expect.poll(() => cell(page, 'standard', 'onboardingDone', 'Key').count()).toBe(0);

    // Every change above is in the device's own store (its JSON file).
    expect(stored()).toEqual([
      { name: 'standard', entries: [{ key: 'authToken', value: 'xyz789' }] },
      { name: 'group.com.example.shared', entries: [{ key: 'lastUser', value: { id: 8, name: 'Bob', roles: ['admin'] } }] },
    ]);

    // The app changes a value itself: the view shows it at once.
    await client.userDefaults.set('featureFlag', 'beta');
    await visible(cell(page, 'standard', 'featureFlag', 'Value'));
    await visible(page.getByRole('region', { name: 'Console' }).getByText('Changed on the device'));

    // The console's top edge resizes it (spec 002 §9: 100 to 400 px, 150 at first): dragged up, then by keys.
    const consoleRegion = page.getByRole('region', { name: 'Console' });
    const consoleHeight = async () => Math.round((await consoleRegion.boundingBox())!.height);
    expect(await consoleHeight()).toBe(150);
    const edge = consoleRegion.getByRole('separator', { name: 'Resize console' });
    await dragBy(edge, 0, -60, { fromX: 200 });
    await expect.poll(consoleHeight).toBe(210);
    await edge.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(consoleHeight).toBe(190);
    await page.keyboard.press('End');
    await expect.poll(consoleHeight).toBe(400);
    await page.keyboard.press('Home');
    await expect.poll(consoleHeight).toBe(100);

    // Search over name, key and value, ignoring case.
    await page.getByLabel('Search user defaults').fill('BOB');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByLabel('Search user defaults').fill('nothing like it');
    await visible(page.getByText('No User Defaults'));
    await page.getByLabel('Search user defaults').fill('');
    await screenshotBothSchemes(page, 'user-defaults-edited');
    expect(errors).toEqual([]);
  });

  it('deletes an entry once when its trash button is double-clicked', async () => {
    await client.userDefaults.set('tapTwice', 'x');
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto(`/devices/${client.deviceId!}/user-defaults`);
    const trash = await visible(page.getByRole('button', { name: 'Delete standard / tapTwice' }));
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && new URL(request.url()).pathname === '/v1/user-defaults') deletes.push(request.postData() ?? '');
    });
    await answerOf(page, 'DELETE', '/user-defaults', () => trash.dblclick({ force: true }));
    await expect.poll(() => cell(page, 'standard', 'tapTwice', 'Key').count()).toBe(0);
    expect(await client.userDefaults.get('tapTwice')).toBeUndefined();
    // Time for a second call, had the second click sent one.
    await page.waitForTimeout(500);
    expect(deletes).toHaveLength(1);
    expect(await page.getByRole('region', { name: 'Console' }).getByText('Deleted standard / tapTwice').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('says User Defaults is not available on an Android device opened by its address, and asks it nothing', async () => {
    const android = createSpyglass({
      serverUrl: env.server.url, apiKey: account.profile.apiKey, storage: memoryStorage(), installId: `e2e-android-${Date.now()}`,
      device: { platform: 'android', name: 'Lab Pixel', model: 'Pixel 8 Pro', systemName: 'Android', systemVersion: '14' },
      capture: { fetch: false, xhr: false, http: false },
    });
    try {
      await new Promise<void>((resolve) => android.on('welcome', () => resolve()));
      const { page, errors } = await fixtures.signedInUser({ account });
      const calls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/v1/user-defaults')) calls.push(request.url());
      });
      await page.goto(`/devices/${android.deviceId!}/user-defaults`);
      await visible(page.getByRole('heading', { name: 'User Defaults is not available for this device' }));
      await visible(page.getByText('User Defaults works on iOS devices only; Lab Pixel runs Android.'));
      expect(await page.getByRole('button', { name: 'Add' }).count()).toBe(0);
      expect(await page.getByRole('table', { name: 'User defaults' }).count()).toBe(0);
      expect(calls).toEqual([]);
      await screenshotBothSchemes(page, 'user-defaults-android');
      await page.getByRole('link', { name: 'Go to requests' }).click();
      await page.waitForURL(`**/devices/${android.deviceId!}`);
      expect(errors).toEqual([]);
    } finally {
      await android.stop();
    }
  });
});
