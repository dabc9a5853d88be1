import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, type Subscription } from '@spyglass/protocol';
import { linkIn } from '../apps/server/test/support/smtp-receiver';
import { startStripeStandIn, type StripeStandIn } from '../apps/server/test/support/stripe-stand-in';
import { setUserFacts, signUpByApi, TEST_PASSWORD, uniqueEmail } from './support/accounts';
import { newContext, recordPageErrors } from './support/browser';
import { useE2eEnvironment, type E2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { answerOf, localStorageItem, visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

const DETAILS_ERRORS = [
  'First name is required', 'Last name is required', 'Company is required', 'Company size is required', 'Role is required',
  'Please select a source', 'Please select a use case',
];

async function subscriptionOf(env: E2eEnvironment, token: string): Promise<Subscription> {
  const res = await fetch(`${env.server.url}/v1/billing/subscription`, {
    headers: { authorization: `Bearer ${token}`, [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD },
  });
  return (await res.json()) as Subscription;
}

/** Sign-up through the form; it then switches to sign-in mode, and signing in starts the onboarding. */
async function signUpAndSignIn(page: Page, email: string): Promise<void> {
  await page.goto('/signup');
  await (await visible(page.getByLabel('Email', { exact: true }))).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  const signUp = await answerOf(page, 'POST', '/auth/signup', () => page.getByRole('button', { name: 'Sign Up', exact: true }).click());
  expect(signUp.status()).toBe(200);
  await visible(page.getByText('Verification email sent! Please check your inbox.').first());
  // The form is in sign-in mode now (spec 000 §4.1).
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/onboarding#welcome');
}

/** The details step: every validation message first, then a complete form saved through both calls. */
async function fillDetails(page: Page, screenshot: boolean): Promise<void> {
  await visible(page.getByRole('heading', { name: 'Tell us about you' }));
  await page.getByRole('button', { name: 'Next' }).click();
  for (const message of DETAILS_ERRORS) await visible(page.getByText(message, { exact: true }));
  if (screenshot) await screenshotBothSchemes(page, 'onboarding-details');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Company', { exact: true }).fill('Analytical Engines');
  await page.getByLabel('Company size').selectOption('2-5');
  await page.getByLabel('Role').selectOption('cto');
  await page.getByLabel('How did you hear about us?').selectOption('github');
  await page.getByLabel('Debugging').check();
  const [details, responses] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/user/details'),
    page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/user/onboarding-responses'),
    page.getByRole('button', { name: 'Next' }).click(),
  ]);
  expect(details.status()).toBe(200);
  expect(responses.request().postDataJSON()).toEqual({ signupSource: 'github', signupUsecases: ['debugging'] });
  await page.waitForURL('**#subscription');
}

/** Issue 18, acceptance 1: the hosted story, Stripe replaced by a local stand-in. */
describe('onboarding with hosted billing', () => {
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
  });
  afterAll(() => stripe?.close());
  const env = useE2eEnvironment(() => ({
    env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url },
  }));
  beforeAll(() => {
    stripe.webhookUrl = `${env.server.url}/v1/billing/webhook`;
  });

  const fixtures = useStoryFixtures(env);

  it('signs up, verifies, chooses Team monthly through Checkout, adds a device and lands on the device list', async () => {
    const { page, errors } = await fixtures.browserPage();
    const email = uniqueEmail('onboarding');
    await signUpAndSignIn(page, email);

    // Welcome: no stepper, Logout, Start Debugging.
    await visible(page.getByRole('button', { name: 'Start Debugging' }));
    expect(await page.getByRole('list', { name: 'Onboarding steps' }).count()).toBe(0);
    await visible(page.getByRole('button', { name: 'Logout' }));
    await screenshotBothSchemes(page, 'onboarding-welcome');
    // After 3 s the showcase brings one more sample request every second.
    await page.locator('.showcase-row').nth(5).waitFor();
    await page.getByRole('button', { name: 'Start Debugging' }).click();

    // Verify email: Next only once verified, through the link the real SMTP receiver got.
    await page.waitForURL('**#verify-email');
    const next = await visible(page.getByRole('button', { name: 'Next' }));
    expect(await next.isDisabled()).toBe(true);
    await screenshotBothSchemes(page, 'onboarding-verify-email');
    const mail = await env.mailbox.waitForMail(email, { subject: /verify/i });
    const token = linkIn(mail, '/verify-email').url.searchParams.get('token')!;
    await page.goto(`/onboarding?token=${token}#verify-email`);
    await visible(page.getByText('Your email has been successfully verified! You can now proceed.'));
    await page.getByRole('button', { name: 'Next' }).click();

    await fillDetails(page, true);

    // Subscription: the pricing chooser, no Back before a subscription exists.
    const team = await visible(page.getByRole('region', { name: 'Team plan' }));
    await visible(page.getByRole('region', { name: 'Pro plan' }).getByText('Most popular'));
    await visible(page.getByText('Free forever & No credit card'));
    expect(await page.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await screenshotBothSchemes(page, 'onboarding-subscription');
    const checkout = await answerOf(page, 'POST', '/billing/create-checkout-session', () => team.getByRole('button', { name: 'Start free trial' }).click());
    expect(checkout.request().postDataJSON()).toMatchObject({ tier: 'team', billingCycle: 'monthly' });
    await page.waitForURL(`${stripe.url}/checkout/**`);
    await page.getByRole('button', { name: 'Subscribe' }).click();

    // Back with subscription=success: the add-device step, and the call offer once the webhook landed.
    await page.waitForURL('**/onboarding?subscription=success#add-device');
    await visible(page.getByText('Waiting for devices to connect...'));
    await visible(page.getByText('Thank you for subscribing!'));
    const continueButton = page.getByRole('button', { name: 'Continue' });
    expect(await continueButton.isDisabled()).toBe(true);
    await screenshotBothSchemes(page, 'onboarding-add-device');

    const apiKey = JSON.parse((await localStorageItem(page, 'profile'))!).apiKey as string;
    const { deviceId } = await fixtures.simulatedDevice(apiKey, { platforms: ['android'], seed: 18 });
    await visible(page.getByText('New device connected!'));
    await continueButton.click();

    await page.waitForURL('**#get-started');
    await screenshotBothSchemes(page, 'onboarding-get-started');
    const complete = await answerOf(page, 'POST', '/user/complete-onboarding', () => page.getByRole('button', { name: "Let's log!" }).click());
    expect(complete.status()).toBe(200);
    await page.waitForURL(/\/devices$/);
    await visible(page.locator(`tr[data-device-id="${deviceId}"]`));

    // The plan came from the webhook, not from the redirect.
    const sessionToken = (await localStorageItem(page, 'token'))!;
    expect(await subscriptionOf(env, sessionToken)).toMatchObject({ plan: 'team', status: 'trialing', billingCycle: 'monthly', isFreeUser: false });

    // Settings: the subscription section, and the pricing modal with the current plan disabled.
    await page.goto('/settings#subscription-details');
    const section = await visible(page.getByRole('region', { name: 'Subscription' }));
    await visible(section.getByText('Team plan'));
    await visible(section.getByText('Trialing'));
    await visible(section.getByRole('progressbar', { name: 'Billing period elapsed' }));
    await visible(section.getByRole('button', { name: 'Manage Subscription' }));
    await visible(section.getByRole('button', { name: 'Cancel Subscription' }));
    await screenshotBothSchemes(page, 'settings-subscription');

    await section.getByRole('button', { name: 'Upgrade Plan' }).click();
    const modal = await visible(page.getByRole('dialog', { name: 'Choose your plan' }));
    const current = modal.getByRole('region', { name: 'Team plan' }).getByRole('button', { name: 'Your Current plan' });
    expect(await current.isDisabled()).toBe(true);
    await modal.getByRole('button', { name: /Yearly/ }).click();
    await visible(modal.getByRole('region', { name: 'Team plan' }).getByText('$190'));
    await visible(modal.getByText('Refund policy'));
    await visible(modal.getByRole('button', { name: 'Logout' }));
    await screenshotBothSchemes(page, 'pricing-modal');
    await page.keyboard.press('Escape');

    // Manage Subscription on a Stripe account whose portal is not set up yet says so.
    stripe.portalConfigured = false;
    try {
      const portal = await answerOf(page, 'POST', '/billing/customer-portal', () => section.getByRole('button', { name: 'Manage Subscription' }).click());
      expect(portal.status()).toBe(400);
      await visible(page.getByText('Customer portal is not configured yet'));
    } finally {
      stripe.portalConfigured = true;
    }

    // Cancel with a reason: access continues, Reactivate is offered.
    await section.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Cancel Subscription' }));
    await dialog.getByLabel('Why are you canceling? (optional)').fill('Just trying things out');
    const cancel = await answerOf(page, 'POST', '/billing/cancel', () => dialog.getByRole('button', { name: 'Cancel Subscription' }).click());
    expect(cancel.status()).toBe(200);
    await visible(section.getByRole('button', { name: 'Reactivate' }));
    await screenshotBothSchemes(page, 'settings-subscription-canceled');
    const reactivate = await answerOf(page, 'POST', '/billing/reactivate', () => section.getByRole('button', { name: 'Reactivate' }).click());
    expect(reactivate.status()).toBe(200);
    await visible(section.getByRole('button', { name: 'Cancel Subscription' }));
    // The browser may log the refused portal call (400); nothing else may go wrong.
    expect(errors.filter((error) => !error.includes('status of 400 (Bad Request)'))).toEqual([]);
  });

  it('shows Subscription Required after a canceled checkout', async () => {
    const account = await signUpByApi(env.server, undefined, undefined, { onboarded: false });
    await setUserFacts(env.server, account.email, { email_verified: 1 });
    const { page } = await fixtures.signedInUser({ account });
    await page.goto('/onboarding?subscription=canceled#subscription');
    await visible(page.getByRole('heading', { name: 'Subscription Required' }));
    for (const benefit of ['14-day free trial', 'Full access', 'No credit card', 'Cancel anytime']) await visible(page.getByText(benefit, { exact: true }));
    await screenshotBothSchemes(page, 'onboarding-subscription-required');
    await page.getByRole('button', { name: 'Choose a plan' }).click();
    // The free plan: a toast, and on to adding a device.
    await page.getByRole('button', { name: 'Continue for free' }).click();
    await visible(page.getByText('You are now a free user'));
    await page.waitForURL('**#add-device');
    expect(await subscriptionOf(env, account.token)).toMatchObject({ plan: 'free', status: 'active' });
  });

  it('after the trial: the banner and the Subscription Expired panel, whose Upgrade Plan opens the pricing modal', async () => {
    const account = await signUpByApi(env.server);
    // The trial is 14 days from sign-up: an operator dates the account back.
    await setUserFacts(env.server, account.email, { created_at: Date.now() - 15 * 24 * 60 * 60 * 1000 });
    const { page } = await fixtures.signedInUser({ account });
    await page.goto('/devices');
    await visible(page.getByText('Your trial has expired. Please consider upgrading to a paid plan').first());
    const panel = await visible(page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Subscription Expired' }) }));
    const devices = await fetch(`${env.server.url}/v1/devices`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(devices.status).toBe(402);
    expect(await devices.json()).toMatchObject({ trialExpired: true });
    await screenshotBothSchemes(page, 'subscription-expired');
    await panel.getByRole('button', { name: 'Upgrade Plan' }).click();
    await visible(page.getByRole('dialog', { name: 'Choose your plan' }));
  });
});

/** Issue 18, acceptance 2: self-hosted, everyone is a free user. */
describe('onboarding self-hosted', () => {
  const env = useE2eEnvironment();

  it('skips the plan step with the free text and lands on the devices; no billing control anywhere', async () => {
    const context = await newContext(env.browser, env.server.url);
    try {
      const page = await context.newPage();
      const errors = recordPageErrors(page);
      const email = uniqueEmail('selfhosted');
      await signUpAndSignIn(page, email);
      await page.getByRole('button', { name: 'Start Debugging' }).click();
      await page.waitForURL('**#verify-email');

      // The link of the mail, opened in this tab, leads back into the onboarding.
      const mail = await env.mailbox.waitForMail(email, { subject: /verify/i });
      await page.goto(linkIn(mail, '/verify-email').url.href);
      await visible(page.getByText('Your email has been successfully verified! You can now proceed.'));
      await page.getByRole('link', { name: 'Continue to Spyglass' }).click();
      await page.waitForURL('**/onboarding#details');
      await fillDetails(page, false);

      await visible(page.getByText('You can currently use the product completely free of charge'));
      const steps = await visible(page.getByRole('list', { name: 'Onboarding steps' }));
      expect(await steps.getByText('Add device').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Team plan' }).count()).toBe(0);
      await screenshotBothSchemes(page, 'onboarding-subscription-free');
      const complete = await answerOf(page, 'POST', '/user/complete-onboarding', () => page.getByRole('button', { name: 'Next' }).click());
      expect(complete.status()).toBe(200);
      await page.waitForURL(/\/devices$/);
      await visible(page.getByRole('heading', { name: /^Devices/ }));

      await page.goto('/settings');
      const section = await visible(page.getByRole('region', { name: 'Subscription' }));
      await visible(section.getByText('You can currently use the product completely free of charge'));
      for (const name of ['Upgrade Plan', 'Manage Subscription', 'Cancel Subscription', 'Reactivate']) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
      expect(await page.getByText('Your trial has expired. Please consider upgrading to a paid plan').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
