import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, USAGE_BAR_MAX_HEIGHT_PX } from '@spyglass/protocol';
import { DEFAULT_PLANS_CONFIG } from '../apps/server/src/services/billing-plans';
import { startStripeStandIn, type StripeStandIn } from '../apps/server/test/support/stripe-stand-in';
import { signUpByApi, type TestAccount } from './support/accounts';
import { useE2eEnvironment, type E2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Small enough for a simulated device to use up within seconds. */
const TEAM_LIMIT = 30_000;

async function call(env: E2eEnvironment, account: TestAccount, method: string, route: string, body?: unknown) {
  const res = await fetch(`${env.server.url}/v1${route}`, {
    method,
    headers: {
      'content-type': 'application/json', authorization: `Bearer ${account.token}`,
      [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

const barsOf = (page: Page) => page.locator('.usage-chart').getAttribute('data-bars');

/** Issue 19, acceptance 2: the usage chart's ranges, and the quota banner and panel from real metering. */
describe('usage and quota in the browser', () => {
  let stripe: StripeStandIn;
  let plansDir: string;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    plansDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-'));
    fs.writeFileSync(path.join(plansDir, 'plans.json'), JSON.stringify({
      ...DEFAULT_PLANS_CONFIG,
      plans: DEFAULT_PLANS_CONFIG.plans.map((p) => (p.id === 'team' ? { ...p, trafficLimit: TEAM_LIMIT } : p)),
    }));
  });
  afterAll(async () => {
    await stripe?.close();
    fs.rmSync(plansDir, { recursive: true, force: true });
  });
  const env = useE2eEnvironment(() => ({
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url,
      BILLING_PLANS_FILE: path.join(plansDir, 'plans.json'),
    },
  }));
  beforeAll(() => {
    stripe.webhookUrl = `${env.server.url}/v1/billing/webhook`;
  });

  const fixtures = useStoryFixtures(env);

  it('meters a device to its Team limit: banner, Data Usage Exceeded panel and the usage chart for each range', async () => {
    const account = await signUpByApi(env.server);
    const checkout = await call(env, account, 'POST', '/billing/create-checkout-session', {
      tier: 'team', billingCycle: 'monthly', successUrl: `${env.server.url}/settings`, cancelUrl: `${env.server.url}/settings`,
    });
    expect(checkout.status).toBe(200);
    const { customer } = await stripe.completeCheckout(checkout.body.sessionId as string);
    const invoiceAt = Date.UTC(2026, 9, 1, 12) / 1000;
    stripe.invoices.push({
      id: 'in_e2e', object: 'invoice', customer, created: invoiceAt, period_start: invoiceAt, period_end: invoiceAt + 31 * 86_400,
      amount_due: 1900, currency: 'usd', status: 'paid', invoice_pdf: 'https://pay.example.com/in_e2e.pdf',
    });

    // The dashboard is open before the device reaches the limit: the banner and the panel come live.
    const { page, errors } = await fixtures.signedInUser({ account });
    await page.goto('/settings');
    const usage = await visible(page.getByRole('region', { name: 'Usage' }));
    expect(await page.getByText('You have exceeded your quota. Please upgrade your plan').count()).toBe(0);

    const simulator = await fixtures.simulator(account.profile.apiKey, { rate: 40, seed: 19, mix: { screenshot: 0 } });
    // The live connection told the page of the device's hello, so it was open before the quota was reached.
    await visible(page.getByText('New Device added'));
    // The SDK says it is refused for the quota: the server metered the device past its limit.
    await expect.poll(() => simulator.stats().sdk.quotaExceeded, { timeout: 60_000, interval: 100 }).toBe(true);
    await simulator.stop();
    const subscription = (await call(env, account, 'GET', '/billing/subscription')).body;
    expect(subscription.trafficUsed).toBeGreaterThanOrEqual(TEAM_LIMIT);

    // No reload: the server's quota_changed made the page read its subscription again.
    await visible(page.getByText('You have exceeded your quota. Please upgrade your plan').first());
    const panel = await visible(usage.getByRole('alert').filter({ hasText: 'Data Usage Exceeded' }));
    await visible(panel.getByRole('button', { name: 'Upgrade Plan' }));

    // 30 days by default, one bar a day; the metered requests are counted.
    await expect.poll(() => barsOf(page)).toBe('30');
    await expect.poll(async () => Number((await usage.getByTestId('usage-total').textContent())?.split(' ')[0]?.replace(/\D/g, ''))).toBeGreaterThan(0);
    const hourly = usage.getByRole('switch', { name: 'Hourly' });
    // The switch's visible track lies over its checkbox; the keyboard reaches the checkbox itself.
    await hourly.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => barsOf(page)).toBe(String(24 * 30));
    await usage.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => barsOf(page)).toBe(String(24 * 7));
    // The tallest bar is the chart's maximum height; the current hour holds the traffic.
    const heights = await page.locator('.usage-bar').evaluateAll((bars) => bars.map((b) => (b as unknown as { offsetHeight: number }).offsetHeight));
    expect(Math.max(...heights)).toBe(USAGE_BAR_MAX_HEIGHT_PX);
    expect(heights.at(-1)).toBeGreaterThan(0);
    await usage.scrollIntoViewIfNeeded();
    await screenshotBothSchemes(page, 'settings-usage-over-quota');

    // From 90 days on the hourly view is off: one bar a day.
    await usage.getByRole('button', { name: '90 days' }).click();
    await expect.poll(() => barsOf(page)).toBe('90');
    expect(await hourly.isDisabled()).toBe(true);
    await usage.getByRole('button', { name: '365 days' }).click();
    await expect.poll(() => barsOf(page)).toBe('365');
    await screenshotBothSchemes(page, 'settings-usage-365');

    // Invoices (spec 000 §2.5, §9): the customer's invoice from the payment provider, amount_due / 100.
    const invoices = await visible(page.getByRole('region', { name: 'Invoices' }));
    const row = await visible(invoices.getByRole('row').filter({ hasText: 'Oct 1, 2026' }));
    await visible(row.getByText('$19.00'));
    await visible(row.getByText('Paid'));
    expect(await row.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('https://pay.example.com/in_e2e.pdf');
    await invoices.scrollIntoViewIfNeeded();
    await screenshotBothSchemes(page, 'settings-invoices');

    // Upgrade Plan opens the pricing modal.
    await panel.getByRole('button', { name: 'Upgrade Plan' }).click();
    await visible(page.getByRole('dialog'));
    expect(errors).toEqual([]);
  });
});
