/**
 * Captured items for the unit tests and the benchmarks of the inspector logic. Not exported from
 * the package: production code never builds items out of thin air.
 */
import type { CapturedItem, CompactItem, NetworkItem } from './items';

type ItemOf<T extends CapturedItem['type']> = Extract<CapturedItem, { type: T }>;

const base = (id: string, num: number, createdAt: string) => ({
  id,
  deviceId: 'device-1',
  num,
  level: null,
  method: null,
  url: null,
  status: null,
  duration: null,
  size: 0,
  sentAt: null,
  createdAt,
  updatedAt: createdAt,
  tags: [],
  notes: null,
  isMocked: false,
  mock: null,
  mockData: null,
  metaData: null,
});

export interface NetworkFixture {
  id?: string;
  num?: number;
  createdAt?: string;
  method?: string;
  url?: string;
  requestHeaders?: Record<string, string>;
  requestBody?: string | null;
  requestBodyEncoding?: 'utf8' | 'base64';
  status?: number | null;
  responseHeaders?: Record<string, string>;
  responseBody?: string | null;
  responseBodyEncoding?: 'utf8' | 'base64';
  duration?: number | null;
  isMocked?: boolean;
  error?: string;
}

export function networkItem(f: NetworkFixture = {}): NetworkItem {
  const num = f.num ?? 1;
  const createdAt = f.createdAt ?? '2026-11-23T10:00:00.000Z';
  const method = f.method ?? 'GET';
  const url = f.url ?? 'https://api.example.com/v1/users?page=2';
  const status = f.status === undefined ? 200 : f.status;
  return {
    ...base(f.id ?? `net-${num}`, num, createdAt),
    type: 'network',
    method,
    url,
    status,
    duration: f.duration === undefined ? 120 : f.duration,
    isMocked: f.isMocked ?? false,
    details: {
      request: {
        method,
        url,
        headers: f.requestHeaders ?? { Accept: 'application/json' },
        ...(f.requestBody !== undefined ? { body: f.requestBody } : {}),
        ...(f.requestBodyEncoding ? { bodyEncoding: f.requestBodyEncoding } : {}),
        startedAt: createdAt,
      },
      ...(status === null ? {} : {
        response: {
          statusCode: status,
          headers: f.responseHeaders ?? { 'Content-Type': 'application/json' },
          ...(f.responseBody !== undefined ? { body: f.responseBody } : {}),
          ...(f.responseBodyEncoding ? { bodyEncoding: f.responseBodyEncoding } : {}),
        },
      }),
      ...(f.error ? { error: f.error } : {}),
    },
  };
}

export function logItem(f: { num?: number; createdAt?: string; message?: string; level?: string; category?: string; subsystem?: string } = {}): ItemOf<'log'> {
  const num = f.num ?? 1;
  return {
    ...base(`log-${num}`, num, f.createdAt ?? '2026-11-23T10:00:00.000Z'),
    type: 'log',
    level: f.level ?? 'info',
    details: {
      message: f.message ?? 'User signed in',
      level: f.level ?? 'info',
      ...(f.category ? { category: f.category } : {}),
      ...(f.subsystem ? { subsystem: f.subsystem } : {}),
    },
  };
}

export function eventItem(f: { num?: number; createdAt?: string; name?: string; category?: string } = {}): ItemOf<'event'> {
  const num = f.num ?? 1;
  return {
    ...base(`event-${num}`, num, f.createdAt ?? '2026-11-23T10:00:00.000Z'),
    type: 'event',
    details: { name: f.name ?? 'checkout_started', ...(f.category ? { category: f.category } : {}), properties: { cart: 3 } },
  };
}

export function screenshotItem(f: { num?: number; createdAt?: string; name?: string } = {}): ItemOf<'screenshot'> {
  const num = f.num ?? 1;
  return {
    ...base(`shot-${num}`, num, f.createdAt ?? '2026-11-23T10:00:00.000Z'),
    type: 'screenshot',
    details: { name: f.name ?? 'Home screen', mimeType: 'image/png', width: 390, height: 844 },
  };
}

export function analyticsItem(f: { num?: number; createdAt?: string; name?: string } = {}): ItemOf<'firebaseAnalytics'> {
  const num = f.num ?? 1;
  return {
    ...base(`fa-${num}`, num, f.createdAt ?? '2026-11-23T10:00:00.000Z'),
    type: 'firebaseAnalytics',
    details: { name: f.name ?? 'screen_view', category: 'analytics', payload: { screen: 'Home' } },
  };
}

const HOSTS = ['api.example.com', 'cdn.example.net', 'auth.example.org', 'images.example.com', 'metrics.example.io'];
const PATHS = ['/v1/users', '/v1/orders', '/v2/cart/items', '/login', '/assets/logo.png', '/v1/search', '/graphql'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const STATUSES = [200, 200, 200, 201, 204, 304, 400, 401, 404, 500, 503];
const MESSAGES = ['User signed in', 'Cache miss for key', 'Rendering HomeView', 'Token refreshed', 'Failed to decode payload'];
const LEVELS = ['debug', 'info', 'warning', 'error'];

/**
 * `n` compact items of every type in a realistic mix (60 % network), oldest first, one item
 * every 37 ms from `start`. Deterministic, so benchmark runs compare like with like. Each item
 * goes through JSON as it does on its way to the client: built by spreading, objects get ever
 * new hidden classes, which would make property reads far slower than on parsed items.
 */
export function generateItems(n: number, start = Date.UTC(2026, 10, 20)): CompactItem[] {
  const items: CompactItem[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const num = i + 1;
    const createdAt = new Date(start + i * 37).toISOString();
    const kind = i % 10;
    if (kind < 6) {
      const host = HOSTS[i % HOSTS.length]!;
      const path = PATHS[i % PATHS.length]!;
      const method = METHODS[(i * 3) % METHODS.length]!;
      const status = STATUSES[(i * 5) % STATUSES.length]!;
      const item: CompactItem = networkItem({
        num,
        createdAt,
        method,
        url: `https://${host}${path}?id=${i}&session=S${i % 97}`,
        status,
        duration: (i * 13) % 900,
        requestHeaders: { Accept: 'application/json', 'User-Agent': 'ShopApp/4.2 (iPhone; iOS 18.1)', 'X-Request-Id': `req-${i}` },
        responseHeaders: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': String(200 + (i % 5000)) },
      });
      item.size = 200 + (i % 5000);
      item.hasResponseBody = true;
      items[i] = item;
    } else if (kind < 8) {
      items[i] = logItem({ num, createdAt, message: `${MESSAGES[i % MESSAGES.length]!} #${i}`, level: LEVELS[i % LEVELS.length]!, category: 'app' });
    } else if (kind === 8) {
      items[i] = eventItem({ num, createdAt, name: `event_${i % 50}`, category: 'commerce' });
    } else if (i % 20 === 9) {
      items[i] = screenshotItem({ num, createdAt, name: `Screenshot ${i}` });
    } else {
      items[i] = analyticsItem({ num, createdAt, name: `screen_view_${i % 30}` });
    }
  }
  for (let i = 0; i < n; i++) items[i] = JSON.parse(JSON.stringify(items[i])) as CompactItem;
  return items;
}
