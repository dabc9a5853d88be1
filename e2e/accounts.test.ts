import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserFacts, signInWithForm, signUpByApi, uniqueEmail } from './support/accounts';
import { newContext, recordPageErrors } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { linkIn } from '../apps/server/test/support/smtp-receiver';
import { answerOf, clipboardText, localStorageItem, localStorageLength, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/**
 * Issue 3, acceptance 3: the life of an account in Chromium against a real server, with mail
 * delivered to a real SMTP receiver.
 */
describe('accounts', () => {
  const env = useE2eEnvironment();
  let email = uniqueEmail('accounts');
  const firstPassword = 'first-Password-1!';
  const secondPassword = 'second-Password-2?';

  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    context = await newContext(env.browser, env.server.url);
    page = await context.newPage();
    pageErrors = recordPageErrors(page);
  });

  afterAll(async () => {
    await context?.close();
  });

  const htmlTheme = () => page.locator('html').getAttribute('data-theme');
  const sidebarHandle = () => page.getByRole('separator', { name: 'Resize sidebar', exact: true });

  const signIn = (password: string) => answerOf(page, 'POST', '/auth/signin', () => signInWithForm(page, email, password));

  async function signOut() {
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Sign In', exact: true }));
  }

  it('shows the sign-in page', async () => {
    await page.goto('/signin');
    await visible(page.getByRole('button', { name: 'Sign In', exact: true }));
    await screenshotBothSchemes(page, 'sign-in');
  });

  it('signs up, receives the verification mail and verifies through its link', async () => {
    await page.goto('/signup');
    await (await visible(page.getByLabel('Email', { exact: true }))).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    const signUp = await answerOf(page, 'POST', '/auth/signup', () => page.getByRole('button', { name: 'Sign Up', exact: true }).click());
    expect(signUp.status()).toBe(200);
    await visible(page.getByText('Verification email sent! Please check your inbox.').first());
    // This story is about the account; onboarding has its own (e2e/onboarding.test.ts).
    await setUserFacts(env.server, email, { onboarding_completed: 1 });

    const mail = await env.mailbox.waitForMail(email, { subject: /verify/i });
    const link = linkIn(mail, '/verify-email').url;
    expect(link.origin).toBe(env.server.url);

    await page.goto(link.href);
    await visible(page.getByText('Your email has been successfully verified! You can now proceed.'));
    // Sign-up kept the token, so the verified user goes straight in.
    await page.getByRole('link', { name: 'Continue to Spyglass' }).click();
    await page.waitForURL('**/devices');
    expect(JSON.parse((await localStorageItem(page, 'profile'))!)).toMatchObject({ email, emailVerified: true });

    // The link is single-use: a second visit fails.
    const again = await context.newPage();
    await again.goto(link.href);
    await visible(again.getByRole('heading', { name: 'Verification Failed' }));
    await again.close();
  });

  it('signs out and signs in', async () => {
    await signOut();
    expect(await localStorageItem(page, 'token')).toBeNull();
    expect(await localStorageItem(page, 'profile')).toBeNull();

    expect((await signIn(firstPassword)).status()).toBe(200);
    await page.waitForURL('**/devices');
    expect(await localStorageItem(page, 'token')).toBeTruthy();
  });

  it('keeps the theme across a reload', async () => {
    const cycle = page.getByRole('button', { name: /theme/i }).first();
    await visible(cycle);
    expect(await htmlTheme()).toBeNull();
    // default → dark, saved as a partial settings update (spec 000 §4.7).
    const save = await answerOf(page, 'POST', '/user/settings', () => cycle.click());
    expect(save.status()).toBe(200);
    expect(save.request().postDataJSON()).toEqual({ settings: { theme: 'dark' } });
    expect(await htmlTheme()).toBe('dark');

    await page.reload();
    await visible(page.getByRole('button', { name: /theme/i }));
    expect(await htmlTheme()).toBe('dark');

    // dark → light → default, so that the screenshots below follow the emulated scheme.
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: /theme/i }).first().click());
    expect(await htmlTheme()).toBe('light');
    await answerOf(page, 'POST', '/user/settings', () => page.getByRole('button', { name: /theme/i }).first().click());
    expect(await htmlTheme()).toBeNull();
  });

  it('keeps the sidebar width across a reload', async () => {
    const handle = await visible(sidebarHandle());
    const before = Number(await handle.getAttribute('aria-valuenow'));
    expect(before).toBe(220);
    const box = (await handle.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const save = await answerOf(page, 'POST', '/user/settings', async () => {
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + 40, y, { steps: 5 });
      await page.mouse.move(x + 80, y, { steps: 5 });
      await page.mouse.up();
    });
    expect(save.request().postDataJSON()).toEqual({ settings: { leftSidebarWidth: 300 } });
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(300);

    await page.reload();
    const reloaded = await visible(sidebarHandle());
    expect(Number(await reloaded.getAttribute('aria-valuenow'))).toBe(300);
    // The panel the handle resizes has that width, not just the handle's value.
    const panel = reloaded.locator('xpath=..');
    expect(Math.round((await panel.boundingBox())!.width)).toBe(300);
  });

  it('shows the settings: API key with Copy, versions', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.goto('/settings');
    await visible(page.getByRole('heading', { name: 'General' }));
    const apiKey = await (await visible(page.getByLabel('API Key'))).innerText();
    expect(apiKey).toMatch(/^sg_live_[A-Za-z0-9]{30}$/);

    const track = await answerOf(page, 'POST', '/analytics/track', () => page.getByRole('button', { name: 'Copy', exact: true }).click());
    expect(track.status()).toBe(200);
    expect(track.request().postDataJSON()).toMatchObject({ eventType: 'api_key_copied' });
    await visible(page.getByRole('button', { name: 'Copied!' }));
    expect(await clipboardText(page)).toBe(apiKey);

    const serverVersion = (await (await fetch(`${env.server.url}/v1/version/server`)).json()) as { version: string };
    const versions = await visible(page.getByRole('region', { name: 'Version' }));
    await visible(versions.getByText('1.0.83', { exact: true }));
    await visible(versions.getByText('20250928T103312.799', { exact: true }));
    await visible(versions.getByText(serverVersion.version, { exact: true }));
    // Debug is for admins only.
    expect(await page.getByRole('heading', { name: 'Debug' }).count()).toBe(0);

    // The picture shows the page as it opens, not the copy indicator.
    await page.reload();
    await visible(page.getByRole('button', { name: 'Copy', exact: true }));
    await screenshotBothSchemes(page, 'settings');
  });

  it('saves the weekly usage report toggle', async () => {
    const toggle = await visible(page.getByRole('switch', { name: 'Weekly usage report' }));
    expect(await toggle.isChecked()).toBe(true);
    // The switch's visible track lies over its checkbox; the keyboard reaches the checkbox itself.
    await toggle.focus();
    const save = await answerOf(page, 'POST', '/user/settings', () => page.keyboard.press('Space'));
    expect(save.request().postDataJSON()).toEqual({ settings: { wantsUsageReport: false } });
    await page.reload();
    expect(await (await visible(page.getByRole('switch', { name: 'Weekly usage report' }))).isChecked()).toBe(false);
  });

  it('changes the email only with the current password and through the link mailed to the new address', async () => {
    const { email: taken } = await signUpByApi(env.server);
    const account = await visible(page.getByRole('region', { name: 'Account' }));
    await account.getByRole('button', { name: 'Edit Email' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Change Email' }));
    const send = () => dialog.getByRole('button', { name: 'Send Link' }).click();
    const field = dialog.getByLabel('New Email', { exact: true });
    await field.fill('not an email');
    await send();
    await visible(dialog.getByText('Invalid email'));

    // A signed-in browser alone is not enough: the current password proves the owner is here.
    await field.fill(taken);
    await send();
    await visible(dialog.getByText('Current password is required'));
    await dialog.getByLabel('Current Password').fill('not-my-Password-3!');
    const wrong = await answerOf(page, 'POST', '/user/update-email', send);
    expect(wrong.status()).toBe(400);
    await visible(dialog.getByText('Current password is incorrect'));
    await dialog.getByLabel('Current Password').fill(firstPassword);
    const refused = await answerOf(page, 'POST', '/user/update-email', send);
    expect(refused.status()).toBe(400);
    await visible(dialog.getByText('Email already in use'));
    await screenshotBothSchemes(page, 'settings-change-email');

    const renamed = uniqueEmail('renamed');
    await field.fill(renamed);
    const mailsBefore = env.mailbox.mails.length;
    const asked = await answerOf(page, 'POST', '/user/update-email', send);
    expect(asked.status()).toBe(200);
    await visible(dialog.getByText(`We sent a link to ${renamed}`, { exact: false }));
    await visible(page.getByText('Verification email sent! Please check your inbox.').first());
    await screenshotBothSchemes(page, 'settings-change-email-sent');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Nothing changes until the link is opened; the old address is told.
    await visible(account.getByText(`${email} · waiting for confirmation of ${renamed}`));
    const notice = await env.mailbox.waitForMail(email, { subject: /being changed/, since: mailsBefore });
    expect(notice.text).toContain(renamed);
    const confirm = await env.mailbox.waitForMail(renamed, { subject: /Confirm your new/, since: mailsBefore });

    // Opening the link moves the account and signs every browser out, this one included.
    await page.goto(linkIn(confirm, '/verify-email').url.href);
    await visible(page.getByText('Your email has been successfully verified! You can now proceed.'));
    await visible(page.getByText(`Your email is now ${renamed}. Please sign in again.`));
    const signInLink = await visible(page.getByRole('link', { name: 'Sign In' }));
    expect(await signInLink.getAttribute('href')).toBe(`/signin?email=${encodeURIComponent(renamed)}`);
    await screenshotBothSchemes(page, 'verify-email-changed');
    email = renamed;
    expect((await signIn(firstPassword)).status()).toBe(200);
    await page.waitForURL('**/devices');
  });

  it('shows the 404 page', async () => {
    await page.goto('/no/such/page');
    await visible(page.getByRole('heading', { name: 'Page Not Found' }));
    await visible(page.getByRole('link', { name: 'Return to Home' }));
    await screenshotBothSchemes(page, 'not-found');
  });

  it('changes the password; the new one signs in, the old one no longer does', async () => {
    await page.goto('/settings');
    await (await visible(page.getByRole('button', { name: 'Change Password' }))).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Change Password' }));

    // The rules of sign-up, each failed one on its own line (they cover the dialog's 8 characters),
    // and the two new values must match.
    await dialog.getByLabel('Current Password').fill(firstPassword);
    await dialog.getByLabel('New Password', { exact: true }).fill('aaaaaaaa');
    await dialog.getByLabel('Confirm New Password').fill('aaaaaaaa');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await visible(dialog.getByText('Password must be at least 10 characters long'));
    await visible(dialog.getByText('Password must contain at least one number'));
    await visible(dialog.getByText('Password must contain at least one special character'));
    await screenshotBothSchemes(page, 'settings-change-password-rules');
    await dialog.getByLabel('New Password', { exact: true }).fill(secondPassword);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await visible(dialog.getByText('New passwords do not match'));

    await dialog.getByLabel('Confirm New Password').fill(secondPassword);
    const change = await answerOf(page, 'POST', '/auth/change-password', () => dialog.getByRole('button', { name: 'Change Password' }).click());
    expect(change.status()).toBe(200);
    await visible(dialog.getByText('Password changed successfully'));
    await dialog.waitFor({ state: 'hidden' });

    await signOut();
    const old = await signIn(firstPassword);
    expect(old.status()).toBe(401);
    await visible(page.getByRole('alert').filter({ hasText: /invalid email or password/i }));
    expect((await signIn(secondPassword)).status()).toBe(200);
    await page.waitForURL('**/devices');
  });

  it('deletes the account; signing in then fails', async () => {
    await page.goto('/settings');
    await (await visible(page.getByRole('button', { name: 'Delete Account' }))).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Delete Account' }));
    const confirmation = dialog.getByLabel('Type "delete my account" to confirm');
    await confirmation.fill('delete my acount');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await visible(dialog.getByText('Please type "delete my account" to confirm'));

    await confirmation.fill('delete my account');
    const deletion = await answerOf(page, 'DELETE', `/user/${await userId(page)}`, () => dialog.getByRole('button', { name: 'Delete Account' }).click());
    expect(deletion.status()).toBe(200);
    // All local storage is cleared and the page reloads into the signed-out form.
    await visible(page.getByRole('button', { name: 'Sign In', exact: true }));
    // Polled: the reload may still be under way, and a read during it finds no page to read from.
    await expect.poll(() => localStorageLength(page)).toBe(0);

    const refused = await signIn(secondPassword);
    expect(refused.status()).toBe(401);
    await visible(page.getByRole('alert').filter({ hasText: /invalid email or password/i }));
    expect(page.url()).toContain('/signin');
  });

  it('raised no uncaught page error', () => {
    expect(pageErrors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
  });
});

async function userId(page: Page): Promise<string> {
  const profile = await localStorageItem(page, 'profile');
  return (JSON.parse(profile ?? '{}') as { id: string }).id;
}
