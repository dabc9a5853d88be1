import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleIdentityProvider, type GoogleIdentityProvider } from '../apps/server/test/support/google-jwks';
import { markOnboarded, setUserFacts, signedInContext, signInWithForm, signUpByApi, uniqueEmail } from './support/accounts';
import { newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';

/** Settings as other kinds of users see them (spec 000 §2.5). */
describe('settings of an admin', () => {
  const env = useE2eEnvironment();

  it('offers Debug, whose test error shows the error panel', async () => {
    const account = await signUpByApi(env.server);
    // No screen grants the admin role: an operator sets it.
    await setUserFacts(env.server, account.email, { is_admin: 1 });

    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      await signInWithForm(page, account.email, account.password);
      await page.waitForURL('**/devices');

      await page.goto('/settings');
      const debug = await visible(page.getByRole('region', { name: 'Debug' }));
      await debug.getByRole('button', { name: 'Throw Test Error' }).click();
      await visible(page.getByRole('heading', { name: 'Something went wrong' }));
      await visible(page.getByText('Test error from Settings → Debug'));

      await page.getByRole('button', { name: 'Refresh Page' }).click();
      await visible(page.getByRole('region', { name: 'Debug' }));
    } finally {
      await context.close();
    }
  });
});

describe('settings on a demo-mode server', () => {
  const env = useE2eEnvironment({ env: { DEMO_MODE: '1' } });

  it('hide email edit, password change and account deletion', async () => {
    const demo = await fetch(`${env.server.url}/v1/user/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timezone: 'Europe/Berlin' }),
    });
    expect(demo.status).toBe(200);
    const { email, password } = (await demo.json()) as { email: string; password: string };

    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      await signInWithForm(page, email, password);
      await page.waitForURL('**/devices');
      await page.goto('/settings');
      await visible(page.getByRole('region', { name: 'General' }));
      await visible(page.getByRole('region', { name: 'Version' }));
      expect(await page.getByRole('region', { name: 'Account' }).count()).toBe(0);
      for (const name of ['Edit Email', 'Change Password', 'Delete Account']) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

describe('settings of a Google account', () => {
  let google: GoogleIdentityProvider;
  beforeAll(async () => {
    google = await startGoogleIdentityProvider();
  });
  afterAll(() => google?.close());
  const env = useE2eEnvironment(() => ({ env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl } }));

  it('offer no password change (spec 000 §2.5: only when authProvider is email)', async () => {
    const email = uniqueEmail('google');
    const signIn = await fetch(`${env.server.url}/v1/auth/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: await google.signIdToken({ email }) }),
    });
    expect(signIn.status).toBe(200);
    const { token, profile } = (await signIn.json()) as { token: string; profile: { id: string; authProvider: string } };
    expect(profile.authProvider).toBe('google');
    await markOnboarded(env.server, token, profile.id);

    const { context, page } = await signedInContext(env.browser, env.server, { token });
    try {
      await page.goto('/settings');
      const account = await visible(page.getByRole('region', { name: 'Account' }));
      await visible(account.getByRole('button', { name: 'Edit Email' }));
      await visible(account.getByRole('button', { name: 'Delete Account' }));
      expect(await account.getByRole('button', { name: 'Change Password' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
