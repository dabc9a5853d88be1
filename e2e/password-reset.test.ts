import { describe, expect, it } from 'vitest';
import { signUpByApi, uniqueEmail } from './support/accounts';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { linkIn } from '../apps/server/test/support/smtp-receiver';
import { answerOf, localStorageItem, visible } from './support/page';

/** A forgotten password, reset through the mailed link (spec 000 §2.1, §5, §8). */
describe('password reset', () => {
  const env = useE2eEnvironment();
  const email = uniqueEmail('reset');
  const oldPassword = 'old-Password-1!';
  const newPassword = 'new-Password-2?';

  it('mails a single-use link that sets a new password and ends every session', async () => {
    const { token: oldToken } = await signUpByApi(env.server, email, oldPassword);

    const context = await newContext(env.browser, env.server.url);
    const page = await context.newPage();
    try {
      await page.goto('/signin');
      await (await visible(page.getByRole('link', { name: 'Reset password' }))).click();
      await page.waitForURL('**/reset-password');
      const send = page.getByRole('button', { name: 'Send reset link' });
      await send.click();
      await visible(page.getByText('Please enter your email'));

      await page.getByLabel('Email', { exact: true }).fill(email);
      const mailsBefore = env.mailbox.mails.length;
      const request = await answerOf(page, 'POST', '/auth/forgot-password', () => send.click());
      expect(request.status()).toBe(200);
      await visible(page.getByText('Password reset email sent! Please check your inbox.').first());
      // The button rests for 10 s.
      expect(await (await visible(page.getByRole('button', { name: /^Resend in \d+s$/ }))).isDisabled()).toBe(true);

      const mail = await env.mailbox.waitForMail(email, { subject: /reset/i, since: mailsBefore });
      const link = linkIn(mail, '/reset-password').url;
      expect(link.origin).toBe(env.server.url);
      await page.goto(link.href);

      // The shared checker lists every failed rule, one per line; then the two values must match.
      const password = await visible(page.getByLabel('New password', { exact: true }));
      const confirm = page.getByLabel('Confirm new password', { exact: true });
      const submit = page.getByRole('button', { name: 'Reset password', exact: true });
      await password.fill('short');
      await confirm.fill('short');
      await submit.click();
      for (const rule of [
        'Password must be at least 10 characters long',
        'Password must contain at least one number',
        'Password must contain at least one special character',
      ]) await visible(page.getByText(rule, { exact: true }));
      await password.fill(newPassword);
      await confirm.fill(`${newPassword}x`);
      await submit.click();
      await visible(page.getByText('Passwords do not match', { exact: true }));

      await confirm.fill(newPassword);
      const reset = await answerOf(page, 'POST', '/auth/reset-password', () => submit.click());
      expect(reset.status()).toBe(200);
      await visible(page.getByText('Password successfully reset! Please login with your new password.').first());
      await page.waitForURL('**/signin');

      // The session from before the reset is over.
      const user = await fetch(`${env.server.url}/v1/user`, { headers: { authorization: `Bearer ${oldToken}` } });
      expect(user.status).toBe(401);

      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(newPassword);
      const signIn = await answerOf(page, 'POST', '/auth/signin', () => page.getByRole('button', { name: 'Sign In', exact: true }).click());
      expect(signIn.status()).toBe(200);
      await page.waitForURL('**/devices');
      expect(await localStorageItem(page, 'token')).toBeTruthy();

      // The link worked once.
      const again = await fetch(`${env.server.url}/v1/auth/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: link.searchParams.get('token'), newPassword: 'third-Password-3!' }),
      });
      expect(again.status).toBe(400);
    } finally {
      await context.close();
    }
  });

  it('shows the sign-in form to a signed-out visitor of any address', async () => {
    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      for (const address of ['/settings', '/devices', '/no/such/page']) {
        await page.goto(address);
        await visible(page.getByRole('button', { name: 'Sign In', exact: true }));
      }
      await page.goto('/verify-email');
      await visible(page.getByText('Invalid verification link'));
    } finally {
      await context.close();
    }
  });
});
