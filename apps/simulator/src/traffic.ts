import type { SpyglassClient } from '@spyglass/sdk';
import { gradientPng } from './png';
import type { Random } from './random';

export const ACTION_KINDS = ['network', 'log', 'event', 'analytics', 'screenshot'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** How often each kind of action happens, relative to the others. */
export type TrafficMix = Record<ActionKind, number>;
export const DEFAULT_MIX: TrafficMix = { network: 55, log: 22, event: 10, analytics: 9, screenshot: 4 };

interface Call {
  path: string;
  init?: RequestInit;
}

/** The requests a shopping app makes, with the content types and failures real apps meet. */
function networkCall(random: Random): Call {
  const kind = random.weighted({
    list: 14, detail: 10, missing: 2, cart: 8, removeFromCart: 3, login: 4, profile: 3, upload: 2, payment: 2, unavailable: 2,
    forbidden: 1, invalid: 2, crash: 1, feed: 4, help: 3, health: 3, catalog: 2, invoice: 2, image: 8, slow: 3, reset: 1,
  });
  switch (kind) {
    case 'list': return { path: `/api/products?page=${random.int(1, 8)}&sort=${random.pick(['price', 'name', 'new'])}` };
    case 'detail': return { path: `/api/products/${random.int(1, 500)}` };
    case 'missing': return { path: `/api/products/${random.int(501, 999)}` };
    case 'cart': return json('POST', '/api/cart', { productId: random.int(1, 64), quantity: random.int(1, 3) });
    case 'removeFromCart': return { path: `/api/cart/items/${random.int(1, 64)}`, init: { method: 'DELETE' } };
    case 'login': {
      const form = new URLSearchParams({ username: random.pick(['alex', 'sam', 'priya']), password: random.chance(0.3) ? 'hunter2' : 'correct-horse' });
      return { path: '/api/login', init: { method: 'POST', body: form } };
    }
    case 'profile': return json('PUT', '/api/profile', { displayName: random.pick(['Alex', 'Sam']), newsletter: random.chance(0.5), theme: random.pick(['light', 'dark']) });
    case 'upload': {
      const form = new FormData();
      form.append('title', 'Receipt');
      form.append('file', new Blob([gradientPng(16, 16, [200, 30, 30], [30, 30, 200])], { type: 'image/png' }), 'receipt.png');
      return { path: '/api/upload', init: { method: 'POST', body: form } };
    }
    case 'payment': return json('POST', '/api/payments', { amount: random.int(500, 20_000), currency: 'EUR', method: 'card' });
    case 'unavailable': return { path: '/api/recommendations' };
    case 'forbidden': return { path: '/api/admin', init: { headers: { authorization: 'Bearer expired' } } };
    case 'invalid': return json('POST', '/api/orders', { items: [1, 2], address: null });
    case 'crash': return { path: '/api/crash' };
    case 'feed': return { path: '/api/feed.xml', init: { headers: { accept: 'application/rss+xml' } } };
    case 'help': return { path: '/help', init: { headers: { accept: 'text/html' } } };
    case 'health': return { path: '/api/health' };
    case 'catalog': return { path: '/api/catalog/export' };
    case 'invoice': return { path: '/files/invoice.pdf' };
    case 'image': return { path: `/images/${random.pick(['hero', 'avatar', 'product-1', 'product-2', 'banner'])}.png` };
    case 'slow': return { path: `/api/slow?ms=${random.int(1200, 3500)}` };
    case 'reset': return { path: '/api/reset' };
  }
}

const json = (method: string, path: string, body: unknown): Call => ({
  path,
  init: { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } },
});

const SCREENS = ['Home', 'Catalog', 'ProductDetail', 'Cart', 'Checkout', 'Profile', 'Settings', 'OrderHistory'] as const;
const LOG_LINES = [
  { level: 'debug', category: 'network', subsystem: 'com.acme.http', message: 'Cache hit for /api/products (age 12s)' },
  { level: 'info', category: 'lifecycle', subsystem: 'com.acme.app', message: 'App entered foreground' },
  { level: 'info', category: 'auth', subsystem: 'com.acme.auth', message: 'Token refreshed, expires in 3600s' },
  { level: 'notice', category: 'sync', subsystem: 'com.acme.sync', message: 'Synced 14 orders in 231 ms' },
  { level: 'warning', category: 'ui', subsystem: 'com.acme.ui', message: 'Image decode took 140 ms on main thread' },
  { level: 'warning', category: 'storage', subsystem: 'com.acme.db', message: 'Disk space low: 512 MB left' },
  { level: 'verbose', category: 'analytics', subsystem: 'com.acme.analytics', message: 'Flushed 8 analytics events' },
] as const;

/** Raised inside named functions so that the stack trace has real frames to show. */
class CheckoutService {
  submitOrder(cartId: string): never {
    throw new TypeError(`Cannot read properties of undefined (reading 'address') in cart ${cartId}`);
  }
}

function failure(random: Random): Error {
  try {
    if (random.chance(0.5)) new CheckoutService().submitOrder(`c_${random.int(100, 999)}`);
    JSON.parse('{"broken": ');
  } catch (error) {
    return error as Error;
  }
  return new Error('unreachable');
}

const ANALYTICS = [
  (r: Random) => ['screen_view', { screen_name: r.pick(SCREENS), screen_class: `${r.pick(SCREENS)}ViewController` }] as const,
  (r: Random) => ['add_to_cart', { item_id: `sku_${r.int(1, 64)}`, value: r.int(10, 200), currency: 'EUR', quantity: r.int(1, 3) }] as const,
  (r: Random) => ['purchase', { transaction_id: `T${r.int(10_000, 99_999)}`, value: r.int(20, 500), currency: 'EUR', coupon: r.pick(['', 'SPRING10']) }] as const,
  (r: Random) => ['login', { method: r.pick(['password', 'apple', 'google']) }] as const,
  (r: Random) => ['search', { search_term: r.pick(['running shoes', 'hoodie', 'lamp']) }] as const,
];

const SCREENSHOT_VARIANTS = 12;

/** One virtual app: performs actions through its SDK client, as a user of the app would cause them. */
export class VirtualApp {
  private screenshots = 0;
  private readonly images: Buffer[] = [];

  constructor(private readonly client: SpyglassClient, private readonly backendUrl: string, private readonly random: Random) {}

  async act(kind: ActionKind): Promise<void> {
    switch (kind) {
      case 'network':
        return this.request();
      case 'log':
        return this.log();
      case 'event':
        this.client.event(this.random.pick(['button_tap', 'screen_appear', 'pull_to_refresh', 'push_received']), {
          category: this.random.pick(['ui', 'navigation', 'notifications']),
          properties: { screen: this.random.pick(SCREENS), elapsedMs: this.random.int(5, 900) },
        });
        return;
      case 'analytics': {
        const [name, payload] = this.random.pick(ANALYTICS)(this.random);
        this.client.analyticsEvent(name, { ...payload }, { category: 'firebase' });
        return;
      }
      case 'screenshot':
        this.client.screenshot(this.screenshot());
        return;
    }
  }

  /** What the dashboard's Take Screenshot gets from this device. */
  screenshot() {
    const n = ++this.screenshots;
    // Encoding a PNG costs about a millisecond: a device reuses a dozen, so that the simulator
    // stays a cheap load generator at high rates.
    let image = this.images[n % SCREENSHOT_VARIANTS];
    if (!image) {
      const from = [this.random.int(0, 255), this.random.int(0, 255), this.random.int(0, 255)] as const;
      image = gradientPng(36, 64, from, [255 - from[0], 255 - from[1], 255 - from[2]]);
      this.images[n % SCREENSHOT_VARIANTS] = image;
    }
    return { image, name: `${this.random.pick(SCREENS)} ${n}`, width: 36, height: 64, mimeType: 'image/png' };
  }

  private async request(): Promise<void> {
    const call = networkCall(this.random);
    // Now and then the backend is unreachable altogether: nothing listens on port 2 (a port
    // fetch does not block, unlike 9), so the connection is refused.
    const base = this.random.chance(0.01) ? 'http://127.0.0.1:2' : this.backendUrl;
    try {
      const res = await this.client.fetch(base + call.path, call.init);
      // The app reads what it asked for, like a real one; the SDK reads its own copy.
      await res.arrayBuffer();
    } catch {
      // Network failures are part of the traffic; the SDK recorded them.
    }
  }

  private log(): void {
    if (this.random.chance(0.2)) {
      const error = failure(this.random);
      this.client.log(`${error.name}: ${error.message}`, { level: this.random.pick(['error', 'critical', 'fault']), category: 'crash', subsystem: 'com.acme.checkout', stackTrace: error });
      return;
    }
    const line = this.random.pick(LOG_LINES);
    this.client.log(line.message, { level: line.level, category: line.category, subsystem: line.subsystem });
  }
}
