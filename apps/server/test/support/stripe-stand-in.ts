import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the few Stripe API calls the server makes (customers, Checkout sessions,
 * subscriptions, billing portal sessions), plus a Checkout page and webhook deliveries signed the
 * way Stripe signs them, so billing runs end to end without the network. The server's `stripe`
 * SDK is pointed here with STRIPE_API_URL.
 */
export interface StripeStandIn {
  /** e.g. http://127.0.0.1:41234: the API base and the Checkout pages. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where webhooks go (the server's /v1/billing/webhook); set once the server listens. */
  webhookUrl: string | null;
  /** When false, portal sessions fail as on a Stripe account without portal settings. */
  portalConfigured: boolean;
  /** The stand-in's clock in ms (subscription periods and event times); default the real one. */
  now: () => number;
  readonly subscriptions: Map<string, StandInSubscription>;
  readonly checkoutSessions: Map<string, CheckoutSession>;
  /** Invoices `GET /v1/invoices?customer=` lists (newest first, as Stripe does); tests add them. */
  readonly invoices: StandInInvoice[];
  /** Completes a Checkout session as a customer would on the page: the subscription starts and its webhook is sent. */
  completeCheckout(sessionId: string): Promise<StandInSubscription>;
  /** Ends a subscription as Stripe does at the end of a canceled period, with its webhook. */
  endSubscription(id: string): Promise<void>;
  /** A signed webhook delivery (optionally with another secret or an old timestamp). */
  deliver(event: StandInEvent, options?: { secret?: string; timestampS?: number }): Promise<Response>;
  event(type: string, object: unknown): StandInEvent;
  close(): Promise<void>;
}

export interface StandInInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  created: number;
  period_start: number;
  period_end: number;
  amount_due: number;
  currency: string;
  status: string;
  invoice_pdf: string | null;
}

export interface CheckoutSession {
  id: string;
  customer: string;
  params: URLSearchParams;
  url: string;
  completed: boolean;
}

export interface StandInSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: Stripe.Subscription.Status;
  metadata: Record<string, string>;
  trial_end: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  items: { object: 'list'; data: Array<{ id: string; current_period_start: number; current_period_end: number; price: { recurring: { interval: 'month' | 'year' } } }> };
}

export interface StandInEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  data: { object: unknown };
}

const DAY_S = 24 * 60 * 60;
const id = (prefix: string) => `${prefix}_${crypto.randomBytes(8).toString('hex')}`;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const signer = new Stripe('sk_test_signer');
  const customers = new Map<string, { id: string; email: string }>();
  const checkoutSessions = new Map<string, CheckoutSession>();
  const subscriptions = new Map<string, StandInSubscription>();
  const invoices: StandInInvoice[] = [];
  const seconds = () => Math.floor(standIn.now() / 1000);

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const invalid = (res: http.ServerResponse, message: string) => send(res, 400, { error: { type: 'invalid_request_error', message } });

  const sendSubscriptionEvent = async (type: string, subscription: StandInSubscription) => {
    if (standIn.webhookUrl) await standIn.deliver(standIn.event(type, subscription));
  };

  const server = http.createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    const api = path.startsWith('/v1/');
    if (api && req.headers.authorization !== `Bearer ${standIn.secretKey}`) {
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    try {
      if (req.method === 'POST' && path === '/v1/customers') {
        const customer = { id: id('cus'), object: 'customer', email: body.get('email') ?? '', metadata: { userId: body.get('metadata[userId]') } };
        customers.set(customer.id, customer);
        return send(res, 200, customer);
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const customer = body.get('customer');
        if (!customer || !customers.has(customer)) return invalid(res, `No such customer: '${customer}'`);
        for (const required of ['success_url', 'cancel_url', 'line_items[0][price_data][unit_amount]']) {
          if (!body.get(required)) return invalid(res, `Missing required param: ${required}.`);
        }
        const session: CheckoutSession = { id: id('cs_test'), customer, params: body, url: '', completed: false };
        session.url = `${standIn.url}/checkout/${session.id}`;
        checkoutSessions.set(session.id, session);
        return send(res, 200, { id: session.id, object: 'checkout.session', url: session.url, customer, mode: 'subscription' });
      }
      const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (subscriptionPath) {
        const subscription = subscriptions.get(subscriptionPath[1]!);
        if (!subscription) return invalid(res, `No such subscription: '${subscriptionPath[1]}'`);
        if (req.method === 'POST') {
          const cancel = body.get('cancel_at_period_end');
          if (cancel !== null) {
            subscription.cancel_at_period_end = cancel === 'true';
            subscription.canceled_at = subscription.cancel_at_period_end ? seconds() : null;
          }
          await sendSubscriptionEvent('customer.subscription.updated', subscription);
        }
        return send(res, 200, subscription);
      }
      if (req.method === 'GET' && path === '/v1/invoices') {
        const customer = url.searchParams.get('customer');
        const data = invoices.filter((i) => i.customer === customer).sort((a, b) => b.created - a.created);
        return send(res, 200, { object: 'list', data, has_more: false, url: '/v1/invoices' });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        if (!standIn.portalConfigured) {
          return invalid(res, 'No configuration provided and your test mode default configuration has not been created. Provide a configuration or create your default by saving your customer portal settings in test mode.');
        }
        return send(res, 200, { id: id('bps'), object: 'billing_portal.session', url: `${standIn.url}/portal/${body.get('customer')}`, return_url: body.get('return_url') });
      }
      if (path === '/favicon.ico') return void res.writeHead(204).end();
      const checkoutPage = /^\/checkout\/([^/]+)$/.exec(path);
      const session = checkoutPage ? checkoutSessions.get(checkoutPage[1]!) : undefined;
      if (session && req.method === 'GET') {
        const name = session.params.get('line_items[0][price_data][product_data][name]') ?? '';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Checkout stand-in</title>
<h1>${escapeHtml(name)}</h1><form method="post"><button type="submit">Subscribe</button></form>
<a href="${escapeHtml(session.params.get('cancel_url') ?? '/')}">Back</a>`);
        return;
      }
      if (session && req.method === 'POST') {
        await standIn.completeCheckout(session.id);
        res.writeHead(303, { location: session.params.get('success_url')!.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
        return;
      }
      send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` } });
    } catch (error) {
      send(res, 500, { error: { type: 'api_error', message: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const standIn: StripeStandIn = {
    url: `http://127.0.0.1:${port}`,
    secretKey: 'sk_test_stand_in',
    webhookSecret: `whsec_${crypto.randomBytes(16).toString('hex')}`,
    webhookUrl: null,
    portalConfigured: true,
    now: Date.now,
    subscriptions,
    checkoutSessions,
    invoices,
    async completeCheckout(sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const params = session.params;
      const trialDays = Number(params.get('subscription_data[trial_period_days]') ?? 0);
      const start = seconds();
      const interval = params.get('line_items[0][price_data][recurring][interval]') === 'year' ? 'year' : 'month';
      const end = trialDays > 0 ? start + trialDays * DAY_S : start + (interval === 'year' ? 365 : 30) * DAY_S;
      const metadata: Record<string, string> = {};
      for (const [key, value] of params) {
        const match = /^subscription_data\[metadata\]\[(.+)\]$/.exec(key);
        if (match) metadata[match[1]!] = value;
      }
      const subscription: StandInSubscription = {
        id: id('sub'),
        object: 'subscription',
        customer: session.customer,
        status: trialDays > 0 ? 'trialing' : 'active',
        metadata,
        trial_end: trialDays > 0 ? end : null,
        cancel_at_period_end: false,
        canceled_at: null,
        items: { object: 'list', data: [{ id: id('si'), current_period_start: start, current_period_end: end, price: { recurring: { interval } } }] },
      };
      subscriptions.set(subscription.id, subscription);
      session.completed = true;
      await sendSubscriptionEvent('customer.subscription.created', subscription);
      return subscription;
    },
    async endSubscription(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      subscription.status = 'canceled';
      await sendSubscriptionEvent('customer.subscription.deleted', subscription);
    },
    event(type, object) {
      return { id: id('evt'), object: 'event', type, created: seconds(), livemode: false, data: { object: structuredClone(object) } };
    },
    async deliver(event, options = {}) {
      if (!standIn.webhookUrl) throw new Error('the stand-in has no webhook URL');
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({
        payload, secret: options.secret ?? standIn.webhookSecret, timestamp: options.timestampS ?? seconds(),
      });
      return fetch(standIn.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return standIn;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
