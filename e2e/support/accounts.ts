import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, type Profile } from '@spyglass/protocol';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { findUserByEmail, updateUser } from '../../apps/server/src/repositories/users.repository';
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../apps/server/src/db/schema';
import { newContext } from './browser';
import { openServerDatabase, type RunningServer } from './server';
import { visible } from './page';

export const TEST_PASSWORD = 'e2e-Password-1!';

let counter = 0;
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${process.pid}-${Date.now()}-${counter++}@example.com`;

export interface TestAccount {
  email: string;
  password: string;
  token: string;
  profile: Profile;
}

/**
 * Signs up through the API, for tests whose story starts with an existing account: one that went
 * through onboarding already (pass `{ onboarded: false }` for a story that starts with it).
 */
export async function signUpByApi(
  server: RunningServer, email = uniqueEmail(), password = TEST_PASSWORD, { onboarded = true }: { onboarded?: boolean } = {},
): Promise<TestAccount> {
  const res = await fetch(`${server.url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-up of ${email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; profile: Profile };
  if (onboarded) await markOnboarded(server, body.token, body.profile.id);
  return { email, password, token: body.token, profile: { ...body.profile, onboardingCompleted: onboarded } };
}

/** Completes the onboarding of an account through the call the onboarding's last step makes. */
export async function markOnboarded(server: RunningServer, token: string, userId: string): Promise<void> {
  const res = await fetch(`${server.url}/v1/user/complete-onboarding`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
    },
    body: JSON.stringify({ userId }),
  });
  if (res.status !== 200) throw new Error(`completing the onboarding of ${userId} failed: ${res.status} ${await res.text()}`);
}

/** A browser profile already signed in as `account`: its token in local storage, as sign-in leaves it. */
export async function signedInContext(
  browser: Browser,
  server: RunningServer,
  account: Pick<TestAccount, 'token'>,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server.url, options);
  const page = await context.newPage();
  // Any page of the origin gives access to its local storage.
  await page.goto('/signin');
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(account.token)})`);
  return { context, page };
}

/** Signs in through the form. */
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signin');
  await (await visible(page.getByLabel('Email', { exact: true }))).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * Sets account facts that no screen changes (admin role, lock, quota block) straight in the
 * server's database, as an operator would.
 */
export async function setUserFacts(server: RunningServer, email: string, patch: Updateable<UsersTable>): Promise<void> {
  const database = await openServerDatabase(server);
  try {
    const user = await findUserByEmail(database.db, email);
    if (!user) throw new Error(`no user ${email}`);
    await updateUser(database.db, user.id, patch);
  } finally {
    await database.close();
  }
}
