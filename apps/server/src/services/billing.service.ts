import Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import {
  BILLING_ERRORS, PAID_PLANS, TRIAL_MS, canCancel, isSubscriptionUsable,
  type CheckoutSessionBody, type Invoice, type Plan, type PlanId, type PlansConfig, type Subscription,
} from '@spyglass/protocol';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { isTrue } from '../db/database';
import { badRequest, conflict, forbidden, notFound, upstreamFailed } from '../errors';
import type { UserRow } from '../repositories/users.repository';
import {
  findSubscription, findUserIdByStripeCustomer, recordBillingEvent, saveSubscription, sumTrafficSince, type SubscriptionRow,
} from '../repositories/subscriptions.repository';
import { findPlan, plansWithOffer } from './billing-plans';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Stripe's default: a signed webhook older than this is a replay and refused. */
const WEBHOOK_TOLERANCE_S = 300;
/** The webhook events that change an account's subscription. */
const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);
const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed']);

interface BillingDeps {
  db: Db;
  config: Pick<Config, 'stripe' | 'publicUrl' | 'demoMode'>;
  plans: PlansConfig;
  now(): number;
  log: FastifyBaseLogger;
  /** Told after an account's subscription changed here (webhook, free plan): quotas read the new limit. */
  subscriptionChanged?(userId: string): Promise<void>;
}

export interface WebhookResult {
  received: true;
  /** The event was applied before: nothing changed. */
  duplicate: boolean;
}

/**
 * Plans and subscriptions in both modes. Self-hosted (no STRIPE_SECRET_KEY) every account is a
 * free user; hosted, an account has a 14-day trial from sign-up, then the plan it chose through
 * Stripe Checkout (or the free plan). Only a verified webhook, confirmed by asking Stripe for the
 * subscription's current state, changes a paid subscription: a return from Checkout proves nothing.
 */
export class BillingService {
  private readonly stripe: Stripe | null;

  constructor(private readonly deps: BillingDeps) {
    const stripeConfig = deps.config.stripe;
    this.stripe = stripeConfig ? new Stripe(stripeConfig.secretKey, { ...stripeHost(stripeConfig.apiUrl), maxNetworkRetries: 1, telemetry: false }) : null;
  }

  /** Hosted billing: a payment provider is configured. */
  get enabled(): boolean {
    return this.stripe !== null;
  }

  /** Spec 000 §3 isFreeUser: every account when self-hosted; hosted, those an operator made free. */
  isFreeUser(user: Pick<UserRow, 'is_free_user'>): boolean {
    return !this.enabled || isTrue(user.is_free_user);
  }

  plans(specialOffer?: string | null): Plan[] {
    return plansWithOffer(this.deps.plans, specialOffer);
  }

  /** The plan's limits (traffic per period, session history), for metering and retention. */
  plan(id: PlanId): Plan | undefined {
    return findPlan(this.deps.plans, id);
  }

  /** The account's subscription; `withUsage` adds the traffic of the current period. */
  async subscription(user: UserRow, withUsage = true): Promise<Subscription> {
    const subscription = this.isFreeUser(user)
      ? freeUserSubscription()
      : toSubscription(user, await findSubscription(this.deps.db, user.id), this.deps.plans);
    if (!withUsage) return subscription;
    const since = subscription.billingPeriodStart ? Date.parse(subscription.billingPeriodStart) : user.created_at;
    const usage = await sumTrafficSince(this.deps.db, user.id, new Date(since).toISOString().slice(0, 10));
    return { ...subscription, trafficUsed: usage.bytes, numRequests: usage.items };
  }

  /** Spec 000 §4.4 and §6: free users, demo accounts and demo hosts always may. */
  async isUsable(user: UserRow): Promise<boolean> {
    if (this.isFreeUser(user) || isTrue(user.is_demo)) return true;
    return isSubscriptionUsable(await this.subscription(user, false), this.deps.now(), this.deps.config.demoMode);
  }

  async createCheckoutSession(user: UserRow, body: CheckoutSessionBody): Promise<{ sessionId: string; url: string }> {
    const stripe = this.requireStripe();
    const plan = this.plans(body.specialOffer).find((p) => p.id === body.tier);
    if (!plan) throw badRequest('This plan is not offered');
    for (const url of [body.successUrl, body.cancelUrl]) {
      if (new URL(url).origin !== new URL(this.deps.config.publicUrl).origin) throw badRequest('Checkout can only return to this site');
    }
    const row = await findSubscription(this.deps.db, user.id);
    const current = toSubscription(user, row, this.deps.plans);
    if (current.plan !== 'free' && (current.status === 'active' || current.status === 'trialing')) {
      throw conflict('You already have a valid subscription');
    }
    const customer = row?.stripe_customer_id ?? await this.createCustomer(stripe, user);
    // What is left of the sign-up trial carries over to the first paid plan; a returning customer has none.
    const trialLeftMs = user.created_at + TRIAL_MS - this.deps.now();
    const trialDays = plan.hasFreeTrial && !row?.stripe_subscription_id && trialLeftMs > 0 ? Math.ceil(trialLeftMs / DAY_MS) : undefined;
    const session = await callStripe(() => stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{
        quantity: 1,
        price_data: {
          currency: plan.currency,
          unit_amount: Math.round(plan.billingCycles[body.billingCycle].price * 100),
          recurring: { interval: body.billingCycle === 'monthly' ? 'month' : 'year' },
          product_data: { name: `Spyglass ${plan.name}` },
        },
      }],
      subscription_data: { metadata: { userId: user.id, plan: plan.id }, ...(trialDays ? { trial_period_days: trialDays } : {}) },
      // The trial needs no card (spec 000 §1); Stripe asks for one before the first payment.
      payment_method_collection: trialDays ? 'if_required' : 'always',
      success_url: body.successUrl,
      cancel_url: body.cancelUrl,
    }), 'Failed to start the checkout');
    if (!session.url) throw upstreamFailed('Failed to start the checkout');
    return { sessionId: session.id, url: session.url };
  }

  async customerPortal(user: UserRow): Promise<{ url: string }> {
    const stripe = this.requireStripe();
    const row = await findSubscription(this.deps.db, user.id);
    if (!row?.stripe_customer_id) throw badRequest(BILLING_ERRORS.contactSupport);
    try {
      const session = await stripe.billingPortal.sessions.create({
        customer: row.stripe_customer_id,
        return_url: `${this.deps.config.publicUrl}/settings#subscription-details`,
      });
      return { url: session.url };
    } catch (error) {
      // Stripe refuses portal sessions until the account's portal settings are saved once.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && /configuration/i.test(error.message)) {
        throw badRequest(BILLING_ERRORS.portalNotConfigured);
      }
      this.deps.log.error({ err: error }, 'customer portal session failed');
      throw upstreamFailed(BILLING_ERRORS.portalSession);
    }
  }

  /** Spec 000 §2.5 Invoices: the customer's invoices from Stripe, newest first; none without a customer. */
  async invoices(user: UserRow): Promise<Invoice[]> {
    if (!this.stripe || this.isFreeUser(user)) return [];
    const customer = (await findSubscription(this.deps.db, user.id))?.stripe_customer_id;
    if (!customer) return [];
    const stripe = this.stripe;
    const list = await callStripe(() => stripe.invoices.list({ customer, limit: 100 }), 'Failed to load invoices');
    return list.data.map((invoice) => ({
      id: invoice.id ?? '', created: invoice.created, period_start: invoice.period_start, period_end: invoice.period_end,
      amount_due: invoice.amount_due, currency: invoice.currency, status: invoice.status ?? null, invoice_pdf: invoice.invoice_pdf ?? null,
    }));
  }

  /** Spec 000 §4.4: the subscription ends with its billing period; access continues until then. */
  async cancel(user: UserRow, reason: string | undefined): Promise<Subscription> {
    const stripe = this.requireStripe();
    const row = await findSubscription(this.deps.db, user.id);
    if (!row?.stripe_subscription_id || !canCancel(toSubscription(user, row, this.deps.plans))) {
      throw badRequest('There is no active subscription to cancel');
    }
    const updated = await callStripe(() => stripe.subscriptions.update(row.stripe_subscription_id!, {
      cancel_at_period_end: true,
      ...(reason ? { cancellation_details: { comment: reason } } : {}),
    }), 'Failed to cancel subscription');
    await saveSubscription(this.deps.db, user.id, trialRow(user), { ...fromStripe(updated, this.deps.now()), cancel_reason: reason ?? null }, this.deps.now());
    return this.subscription(user);
  }

  async reactivate(user: UserRow): Promise<Subscription> {
    const stripe = this.requireStripe();
    const row = await findSubscription(this.deps.db, user.id);
    if (!row?.stripe_subscription_id || row.canceled_at === null) throw badRequest('There is no canceled subscription to reactivate');
    if (row.status !== 'active' && row.status !== 'trialing') throw badRequest('This subscription has ended: choose a plan to subscribe again');
    const updated = await callStripe(() => stripe.subscriptions.update(row.stripe_subscription_id!, { cancel_at_period_end: false }), BILLING_ERRORS.reactivate);
    await saveSubscription(this.deps.db, user.id, trialRow(user), { ...fromStripe(updated, this.deps.now()), cancel_reason: null }, this.deps.now());
    return this.subscription(user);
  }

  /** The free plan (spec 000 §4.3 "Choosing free"): no payment provider involved. */
  async chooseFree(user: UserRow, userId: string, billingCycle: 'monthly' | 'yearly' | undefined): Promise<Subscription> {
    if (userId !== user.id) throw forbidden('You can only change your own subscription');
    if (this.isFreeUser(user)) return this.subscription(user);
    const current = toSubscription(user, await findSubscription(this.deps.db, user.id), this.deps.plans);
    if (current.plan !== 'free' && (current.status === 'active' || current.status === 'trialing') && current.canceledAt === null) {
      throw conflict('Cancel your current subscription before you switch to the free plan');
    }
    const now = this.deps.now();
    await saveSubscription(this.deps.db, user.id, trialRow(user), {
      plan: 'free', status: 'active', billing_cycle: billingCycle ?? 'monthly', period_start: now, period_end: null,
      trial_ends_at: null, canceled_at: null, cancel_reason: null,
    }, now);
    await this.deps.subscriptionChanged?.(user.id);
    return this.subscription(user);
  }

  /**
   * A Stripe webhook: the signature (and its age) checked on the raw body, then the subscription's
   * current state fetched from Stripe and stored, once per event id.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
    const stripe = this.stripe;
    const secret = this.deps.config.stripe?.webhookSecret;
    if (!stripe || !secret) throw notFound('Webhooks are not configured on this server');
    if (!signature) throw badRequest('Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(rawBody, signature, secret, WEBHOOK_TOLERANCE_S, undefined, this.deps.now());
    } catch {
      throw badRequest('Invalid webhook signature');
    }
    const subscriptionId = subscriptionIdOf(event);
    if (!subscriptionId) {
      const fresh = await recordBillingEvent(this.deps.db, event.id, event.type, this.deps.now());
      return { received: true, duplicate: !fresh };
    }
    // The event's copy may be older than others already applied: the provider's current state is the truth.
    const subscription = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId), 'Failed to read the subscription');
    const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    const userId = await findUserIdByStripeCustomer(this.deps.db, customerId);
    const result = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await recordBillingEvent(trx, event.id, event.type, this.deps.now()))) return { received: true as const, duplicate: true };
      if (!userId) {
        this.deps.log.warn({ eventId: event.id, customerId }, 'webhook for a customer no account has');
        return { received: true as const, duplicate: false };
      }
      await saveSubscription(trx, userId, { plan: 'free', status: 'expired' }, fromStripe(subscription, this.deps.now()), this.deps.now());
      return { received: true as const, duplicate: false };
    });
    if (userId && !result.duplicate) await this.deps.subscriptionChanged?.(userId);
    return result;
  }

  private async createCustomer(stripe: Stripe, user: UserRow): Promise<string> {
    const customer = await callStripe(() => stripe.customers.create({ email: user.email, metadata: { userId: user.id } }), 'Failed to start the checkout');
    await saveSubscription(this.deps.db, user.id, trialRow(user), { stripe_customer_id: customer.id }, this.deps.now());
    return customer.id;
  }

  private requireStripe(): Stripe {
    if (!this.stripe) throw badRequest('Subscriptions are not offered on this server: every account is free');
    return this.stripe;
  }
}

/** `host`, `port` and `protocol` of another Stripe API base (tests' stand-in). */
function stripeHost(apiUrl: string | null): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  return {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  };
}

async function callStripe<T>(call: () => Promise<T>, message: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw upstreamFailed(error instanceof Stripe.errors.StripeError && error.type === 'StripeInvalidRequestError' ? `${message}: ${error.message}` : message);
  }
}

function freeUserSubscription(): Subscription {
  return {
    plan: 'free', status: 'active', billingCycle: null, billingPeriodStart: null, billingPeriodEnd: null,
    trafficUsed: 0, trafficLimit: null, numRequests: 0, canceledAt: null, trialEndsAt: null, isFreeUser: true,
  };
}

/** The row an account has before it chose anything: its trial, 14 days from sign-up. */
function trialRow(user: Pick<UserRow, 'created_at'>) {
  return { plan: 'free' as const, status: 'expired' as const, trial_ends_at: user.created_at + TRIAL_MS };
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

function toSubscription(user: UserRow, row: SubscriptionRow | undefined, plans: PlansConfig): Subscription {
  const r = row ?? { ...trialRow(user), billing_cycle: null, period_start: null, period_end: null, canceled_at: null };
  // Before a plan is chosen the trial is not metered: it is the whole product for 14 days.
  const trafficLimit = row ? findPlan(plans, r.plan)?.trafficLimit ?? null : null;
  return {
    plan: r.plan,
    status: r.status,
    billingCycle: r.billing_cycle,
    billingPeriodStart: iso(r.period_start),
    billingPeriodEnd: iso(r.period_end),
    trafficUsed: 0,
    trafficLimit,
    numRequests: 0,
    canceledAt: iso(r.canceled_at),
    trialEndsAt: iso(r.trial_ends_at),
    isFreeUser: false,
  };
}

/** Spec 000 §4.4's statuses from Stripe's: a past-due subscription keeps access while Stripe retries the payment. */
function statusOf(status: Stripe.Subscription.Status): SubscriptionRow['status'] {
  switch (status) {
    case 'active':
    case 'past_due':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'canceled':
      return 'canceled';
    default:
      return 'expired';
  }
}

function fromStripe(subscription: Stripe.Subscription, now: number) {
  const item = subscription.items.data[0];
  const plan = subscription.metadata.plan;
  const ended = subscription.status === 'canceled';
  return {
    ...(PAID_PLANS.includes(plan as (typeof PAID_PLANS)[number]) ? { plan: plan as SubscriptionRow['plan'] } : {}),
    status: statusOf(subscription.status),
    billing_cycle: item?.price.recurring?.interval === 'year' ? 'yearly' as const : 'monthly' as const,
    period_start: item ? item.current_period_start * 1000 : null,
    period_end: item ? item.current_period_end * 1000 : null,
    trial_ends_at: subscription.trial_end ? subscription.trial_end * 1000 : null,
    canceled_at: subscription.cancel_at_period_end || ended ? (subscription.canceled_at ? subscription.canceled_at * 1000 : now) : null,
    stripe_subscription_id: subscription.id,
  };
}

function subscriptionIdOf(event: Stripe.Event): string | null {
  if (SUBSCRIPTION_EVENTS.has(event.type)) return (event.data.object as Stripe.Subscription).id;
  if (INVOICE_EVENTS.has(event.type)) {
    const ref = (event.data.object as Stripe.Invoice).parent?.subscription_details?.subscription;
    if (!ref) return null;
    return typeof ref === 'string' ? ref : ref.id;
  }
  return null;
}
