/**
 * The sample a new account looks at before its first device connects (spec 001 §9, spec 002
 * 'Sample data'): the device `1-demo` and its 32 captured items, realistic enough to try every
 * part of the inspector on (JSON bodies, an image, errors, a slow request, logs with stack traces,
 * events, an analytics event, a screenshot). The server stores them as the items of that device;
 * demo accounts get the same.
 */
import type { DeviceInfo } from './devices';
import type { DeviceItem } from './device-protocol';

export const SAMPLE_DEVICE_ID = '1-demo';
/** Spec 001 §9: the sample list shown to new users has 32 items. */
export const SAMPLE_ITEM_COUNT = 32;

export const SAMPLE_DEVICE_INFO: DeviceInfo = {
  platform: 'ios',
  name: 'Sample iPhone',
  model: 'iPhone 15 Pro',
  localizedModel: 'iPhone',
  type: 'iPhone16,1',
  version: '17.5',
  simulator: false,
  bundleId: 'com.spyglass.sample.todos',
  group: 'Sample',
  clientAppVersion: '2.4.1',
  clientAppMinimumOSVersion: '15.0',
  clientAppDisplayName: 'Todos',
  sdkVersion: '1.4.540',
  isScreenShareEnabled: false,
  batteryLevel: 0.82,
  batteryState: 'unplugged',
  isLowPowerModeEnabled: false,
  physicalMemory: 8_589_934_592,
  processorCount: 6,
  activeProcessorCount: 6,
  screenWidth: 393,
  screenHeight: 852,
  screenScale: 3,
  interfaceStyle: 'dark',
  deviceOrientation: 'portrait',
  localeIdentifier: 'en_US',
  languageCode: 'en',
  regionCode: 'US',
  timezone: 'America/New_York',
  systemName: 'iOS',
  systemVersion: '17.5',
};

/** Spec 002 'Sample data': the sample mock body holds three TODO items. */
export const SAMPLE_TODOS = [
  { id: 1, name: 'Buy groceries', status: 'open', createdAt: '2025-01-06T09:15:00.000Z' },
  { id: 2, name: 'Write the release notes', status: 'done', createdAt: '2025-01-07T14:30:00.000Z' },
  { id: 3, name: 'Call the dentist', status: 'open', createdAt: '2025-01-08T08:05:00.000Z' },
];

/** A 90 × 180 PNG of the sample app's todo screen: the avatar response and the screenshot. */
const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAFoAAAC0CAIAAACbhKynAAADl0lEQVR42u3Z61bMcRTG8X0dXrodpxxKhUTUHJpmmv9McTvOipBKiNIJyZmQY7gP3u1l9nr2LP7z5r+257e+N/B8Xu21frKN748nJCAHOchBDnKQgxzkIAc5yEEOcpAjAMfA6Z9Mk9zpH0wjh+X4zjTJnfrONHJYji2mSW50i2mSG/3GNHKQoxnHyFemuRy/Qj+XIz/yBRabw1st+foXWHAOZzU5LMdnWHQOvJochqP2CRacw1lNjrQc21d6YME4PsKic+DVkk8+woJzOKsln2zConPg1VJINmGxObzVUqhuwoJzOKulUP0Ai86BV5PDcryHxT7DvNVSGH4PC87hrCaH5XgHi86BV0uh8g4WnMNZLYXKBiw6B15NjkaOYmUDFpvDWy3F8lumkcNyvGGaFIfeMI0cluM108hhOEqvmOZyBD/DyPFXHIODL2GxObzV5LAcL2DROfBqchiO4gtYcA5ntQwWn8Oic+DV/8AR6dvJ5yg8gwXncFaTgxxNOZ7ConPg1TKYfwoLzuGsllJ+HRabw1tNDsORW4fFPsO81VLKPYFF58CryWE51mDROfBqKQ2swYJzOKvJYTkew6Jz4NVS6n8MC87hrJZS/yOmyVD/I6aRw3CcfMg0cliOVabJ0IlVppHDcqzAYp9h3mpyGI6+ZVhwDmc1ORo5yn3LsNgc3mop9y3BonPg1VI+vgQLzuGslvLxRVh0Drz6HzgifTv5HMcWYcE5nNVSPvYAFp0DryaH5ViARefAq6XcuwALzuGsJkcjR6V3Hhabw1stlaPzsNhnmLdaKkfvw6Jz4NXkIEczjp57sOAczmpyWI45WHQOvFoqR+ZgwTmc1S7H/5lUjtxlGjkaOYYP32EaOcjRjOPQbaaRw3LMMo0chqN7lmky3H2LaeQwHF0zTJNq1wzTyGE5ppkm1c5ppkm1c4pp5DAcB6eYJtWDN5lGDssxyTSpdkwyTZKOSaZJ0nGDaZK032CaJO3XmUYOcjTjOHCNaeSwHBNMk2T/ROq2ZfK1sogcjRy1/VdTl02OVhaRw3Dsu5K6jHK0sIgc5GjKMZ66rHKkXyS1veOpyyhHC4uktncsdVnlSL+IHIajbSx1GeVoYZHU2i6nLqsc6ReRo5Gj3nYpddnkaGWR1PdcSl1GOVpYRA7LcTF1WeVIv0jquy8yTeq7LzCNHORoxrHrPNPIYTnOMU1Gdp5jGjksx1mmkcNw7DjDtN9MTY6ACh0guAAAAABJRU5ErkJggg==';

const API = 'https://api.todos-sample.app';
const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
const IMAGE_HEADERS: Record<string, string> = { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=86400' };
const REQUEST_HEADERS = {
  Accept: 'application/json',
  Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.c2FtcGxl.sample',
  'User-Agent': 'Todos/2.4.1 (iPhone; iOS 17.5; Scale/3.00)',
};

interface Exchange {
  method: string;
  path: string;
  status?: number;
  ms: number;
  requestBody?: unknown;
  responseBody?: unknown;
  responseHeaders?: Record<string, string>;
  image?: boolean;
  error?: string;
}

type Build = (at: (offsetMs: number) => string) => DeviceItem;

function request(e: Exchange): Build {
  return (at) => {
    const started = at(0);
    const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
    const response = e.status === undefined ? undefined : {
      statusCode: e.status,
      headers: e.image ? IMAGE_HEADERS : { ...JSON_HEADERS, ...e.responseHeaders },
      body: e.image ? SAMPLE_PNG : json(e.responseBody) ?? null,
      ...(e.image ? { bodyEncoding: 'base64' as const } : {}),
      receivedAt: at(e.ms),
      httpVersion: 'HTTP/2',
    };
    return {
      id: '', createdAt: started, sentAt: started, type: 'network',
      details: {
        request: {
          method: e.method,
          url: `${API}${e.path}`,
          headers: e.requestBody === undefined ? REQUEST_HEADERS : { ...REQUEST_HEADERS, ...JSON_HEADERS },
          body: json(e.requestBody) ?? null,
          startedAt: started,
          httpVersion: 'HTTP/2',
        },
        ...(response ? { response } : {}),
        ...(e.error ? { error: e.error } : {}),
        timings: { total: e.ms, dns: 0, connect: 0, ssl: 0, send: 1, wait: Math.max(e.ms - 6, 0), receive: 5 },
      },
    };
  };
}

const log = (level: string, message: string, extra: Partial<Extract<DeviceItem, { type: 'log' }>['details']> = {}): Build =>
  (at) => ({ id: '', createdAt: at(0), level, type: 'log', details: { message, level, ...extra } });

const event = (name: string, category: string, properties: Record<string, unknown>): Build =>
  (at) => ({ id: '', createdAt: at(0), type: 'event', details: { name, category, properties } });

const analytics = (name: string, payload: Record<string, unknown>): Build =>
  (at) => ({ id: '', createdAt: at(0), level: 'info', type: 'firebaseAnalytics', details: { name, category: 'firebase', level: 'info', payload } });

const screenshot: Build = (at) => ({
  id: '', createdAt: at(0), type: 'screenshot',
  details: { name: 'Todo list', image: SAMPLE_PNG, mimeType: 'image/png', width: 90, height: 180 },
});

const stack = (frames: Array<[string, string, string, number]>) =>
  frames.map(([className, methodName, fileName, lineNumber]) => ({ className, methodName, fileName, lineNumber }));

/** In capture order; each is stamped 1.5 s after the one before. */
const SAMPLE: Build[] = [
  log('info', 'Application did finish launching (cold start 412 ms)', { category: 'lifecycle', file: 'AppDelegate.swift', line: 24 }),
  event('app_open', 'lifecycle', { coldStart: true, launchMs: 412 }),
  request({ method: 'GET', path: '/v1/config', status: 200, ms: 88, responseBody: { features: { darkMode: true, sharing: false }, minVersion: '2.0.0', supportUrl: 'https://todos-sample.app/help' } }),
  request({ method: 'POST', path: '/v1/auth/refresh', status: 401, ms: 143, requestBody: { refreshToken: 'rt_8f2c1d7e' }, responseBody: { error: 'token_expired', message: 'The refresh token has expired' } }),
  log('warning', 'Refresh token expired, asking the user to sign in again', { category: 'auth', file: 'SessionStore.swift', line: 87 }),
  request({ method: 'POST', path: '/v1/auth/signin', status: 200, ms: 231, requestBody: { email: 'alex@example.com', password: '••••••••' }, responseBody: { token: 'eyJhbGciOiJIUzI1NiJ9.c2FtcGxl.sample', expiresIn: 3600, user: { id: 'u_1042', name: 'Alex Morgan' } } }),
  analytics('login', { method: 'email', user_id: 'u_1042' }),
  request({ method: 'GET', path: '/v1/users/me', status: 200, ms: 97, responseBody: { id: 'u_1042', name: 'Alex Morgan', email: 'alex@example.com', plan: 'pro', avatarUrl: `${API}/v1/users/u_1042/avatar.png`, createdAt: '2024-03-18T10:22:05.000Z' } }),
  request({ method: 'GET', path: '/v1/users/u_1042/avatar.png', status: 200, ms: 164, image: true }),
  request({ method: 'GET', path: '/v1/todos?status=all', status: 200, ms: 126, responseBody: SAMPLE_TODOS, responseHeaders: { 'X-Total-Count': '3' } }),
  log('debug', 'Rendered 3 todos in 4 ms', { category: 'ui', file: 'TodoListView.swift', line: 51 }),
  screenshot,
  request({ method: 'POST', path: '/v1/todos', status: 201, ms: 178, requestBody: { name: 'Book flights to Lisbon', status: 'open' }, responseBody: { id: 4, name: 'Book flights to Lisbon', status: 'open', createdAt: '2025-01-09T18:42:11.000Z' } }),
  event('todo_created', 'todos', { id: 4, source: 'quick_add' }),
  request({ method: 'PATCH', path: '/v1/todos/1', status: 200, ms: 104, requestBody: { status: 'done' }, responseBody: { ...SAMPLE_TODOS[0], status: 'done' } }),
  request({ method: 'DELETE', path: '/v1/todos/3', status: 204, ms: 92 }),
  request({ method: 'GET', path: '/v1/todos/99', status: 404, ms: 71, responseBody: { error: 'not_found', message: 'Todo 99 does not exist' } }),
  log('error', 'Failed to open todo 99: notFound', {
    category: 'todos', file: 'TodoDetailViewModel.swift', line: 63,
    stackTrace: stack([
      ['TodoDetailViewModel', 'load(id:)', 'TodoDetailViewModel.swift', 63],
      ['TodoAPI', 'fetchTodo(id:)', 'TodoAPI.swift', 118],
      ['HTTPClient', 'send(_:)', 'HTTPClient.swift', 204],
      ['URLSession', 'dataTask(with:completionHandler:)', 'Foundation', 0],
    ]),
  }),
  request({ method: 'GET', path: '/v1/search?q=groceries&limit=20', status: 200, ms: 3840, responseBody: { query: 'groceries', took: 3790, results: [SAMPLE_TODOS[0]] } }),
  log('warning', 'Slow request: GET /v1/search took 3840 ms (budget 1000 ms)', { category: 'network', file: 'HTTPClient.swift', line: 231 }),
  request({ method: 'POST', path: '/v1/checkout', status: 500, ms: 612, requestBody: { plan: 'family', seats: 4, currency: 'USD' }, responseBody: { error: 'internal_error', message: 'Payment provider timed out', requestId: 'req_7Hc2LwQ' } }),
  log('error', 'Unexpectedly found nil while unwrapping an Optional value', {
    category: 'checkout', file: 'CheckoutViewController.swift', line: 142, name: 'Fatal error',
    stackTrace: stack([
      ['CheckoutViewController', 'didTapPay(_:)', 'CheckoutViewController.swift', 142],
      ['CheckoutViewController', 'submitOrder()', 'CheckoutViewController.swift', 97],
      ['UIApplication', 'sendAction(_:to:from:for:)', 'UIKitCore', 0],
      ['UIControl', 'sendActionsForControlEvents:', 'UIKitCore', 0],
    ]),
    metadata: { orderId: 'ord_5521', retry: 2 },
  }),
  analytics('purchase_failed', { plan: 'family', value: 49.99, currency: 'USD', reason: 'internal_error' }),
  request({ method: 'GET', path: '/v1/sync/changes?since=1736448000', ms: 30_000, error: 'The request timed out. (NSURLErrorDomain -1001)' }),
  log('info', 'Retrying sync in 5 s', { category: 'sync', file: 'SyncEngine.swift', line: 76 }),
  request({ method: 'GET', path: '/v1/sync/changes?since=1736448000', status: 200, ms: 241, responseBody: { changes: [{ id: 4, op: 'insert' }, { id: 1, op: 'update' }, { id: 3, op: 'delete' }], cursor: 'c_1736449911' } }),
  request({ method: 'PUT', path: '/v1/users/me/settings', status: 200, ms: 133, requestBody: { reminders: true, theme: 'dark', weekStartsOn: 'monday' }, responseBody: { reminders: true, theme: 'dark', weekStartsOn: 'monday' } }),
  event('settings_changed', 'settings', { theme: 'dark', reminders: true }),
  request({ method: 'GET', path: '/v1/config', status: 304, ms: 45, responseHeaders: { ETag: 'W/"c0nf1g"' } }),
  log('debug', 'Background refresh scheduled for 15 min', { category: 'lifecycle', file: 'BackgroundTasks.swift', line: 33 }),
  request({ method: 'POST', path: '/v1/events/batch', status: 202, ms: 66, requestBody: { events: [{ name: 'todo_created', ts: 1736448131 }, { name: 'settings_changed', ts: 1736448150 }] }, responseBody: { accepted: 2 } }),
  log('info', 'Application did enter background', { category: 'lifecycle', file: 'SceneDelegate.swift', line: 58 }),
];

/**
 * The sample items, the last one captured at `endsAt` (epoch ms) and the others 1.5 s apart before
 * it, with stable ids (`sample-01` …) so that adding the sample twice changes nothing.
 */
export function sampleItems(endsAt: number): DeviceItem[] {
  const stepMs = 1500;
  return SAMPLE.map((build, index) => {
    const start = endsAt - (SAMPLE.length - 1 - index) * stepMs;
    const item = build((offsetMs) => new Date(start + offsetMs).toISOString());
    return { ...item, id: `sample-${String(index + 1).padStart(2, '0')}` };
  });
}
