import { INTERCEPTED_HEADER } from '../constants';
import type { CapturedItem } from '../items';
import type { DeviceItemMock } from './device-mocks';
import type { MockData } from './mocked-routes';
import { compileUrlPattern, mapRemoteUrl, parseRequestUrl, urlMatches, type RequestUrl, type UrlPattern } from './url-pattern';

/** A request as mocks see it. */
export interface MockRequest {
  method: string;
  url: string;
}

/** The parts of a route that matching needs (a MockedRoute or a DeviceMockedRoute). */
export interface MatchableRoute {
  id: string;
  createdAt: string;
  mockData: Pick<MockData, 'method' | 'mockedUrl'> & Partial<MockData>;
  isEnabled?: boolean;
}

type Logger = (message: string) => void;
let logInvalid: Logger = (message) => console.warn(`[spyglass] ${message}`);
const reported = new Set<string>();

/** Where invalid patterns are reported (console.warn by default); each pattern once. */
export function setMockLogger(logger: Logger): void {
  logInvalid = logger;
  reported.clear();
}

const cache = new Map<string, UrlPattern | null>();
const CACHE_LIMIT = 5000;

/** The compiled pattern, or null (logged once) when it is invalid: an invalid pattern matches nothing. */
export function patternOf(source: string): UrlPattern | null {
  let compiled = cache.get(source);
  if (compiled !== undefined) return compiled;
  const result = compileUrlPattern(source);
  compiled = result.ok ? result.pattern : null;
  if (!result.ok && !reported.has(source)) {
    if (reported.size > CACHE_LIMIT) reported.clear();
    reported.add(source);
    logInvalid(result.error);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

function methodMatches(routeMethod: string, requestMethod: string): boolean {
  return routeMethod.toUpperCase() === requestMethod.toUpperCase();
}

/**
 * Whether `route` takes `request`: the same method and a URL its pattern matches. A disabled
 * route, an invalid pattern (logged) or a request URL that is not absolute matches nothing.
 */
export function routeMatches(route: MatchableRoute, request: MockRequest): boolean {
  if (route.isEnabled === false) return false;
  if (!methodMatches(route.mockData.method, request.method)) return false;
  const pattern = patternOf(route.mockData.mockedUrl);
  const url = parseRequestUrl(request.url);
  return !!pattern && !!url && urlMatches(pattern, url);
}

/**
 * Precedence (docs/mocks.md): the most specific pattern wins — the one with the most literal
 * characters — and between equally specific ones the newest (createdAt, then id) wins.
 */
export function comparePrecedence(a: { specificity: number; createdAt: string; id: string }, b: { specificity: number; createdAt: string; id: string }): number {
  if (a.specificity !== b.specificity) return b.specificity - a.specificity;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

interface Compiled<T> {
  value: T;
  id: string;
  createdAt: string;
  method: string;
  pattern: UrlPattern;
  specificity: number;
}

interface MethodBucket<T> {
  /** Per host name: the rules naming that host and the rules for any host, in precedence order. */
  byHost: Map<string, Compiled<T>[]>;
  /** Rules for any host (or a host with wildcards): all a request to another host can match. */
  anyHost: Compiled<T>[];
}

/** The host name a pattern names exactly (without its port), or undefined for any / wildcard hosts. */
function exactHostName(pattern: UrlPattern): string | undefined {
  if (typeof pattern.host !== 'string') return undefined;
  return pattern.hostHasPort ? pattern.host.slice(0, pattern.host.lastIndexOf(':')) : pattern.host;
}

/**
 * A set of rules compiled once and kept in precedence order, bucketed by method and host name,
 * so that finding the rule for a request is one URL parse and a scan of the rules that could take
 * it, which stops at the first match (bench/suites/60-mocks.ts).
 */
export class MockRuleSet<T> {
  private readonly byMethod = new Map<string, MethodBucket<T>>();
  readonly size: number;

  constructor(rules: readonly T[], describe: (rule: T) => { id: string; createdAt: string; method: string; url: string } | undefined) {
    const all: Compiled<T>[] = [];
    for (const value of rules) {
      const rule = describe(value);
      if (!rule) continue;
      const pattern = patternOf(rule.url);
      if (!pattern) continue;
      all.push({ value, id: rule.id, createdAt: rule.createdAt, method: rule.method.toUpperCase(), pattern, specificity: pattern.specificity });
    }
    all.sort(comparePrecedence);
    for (const rule of all) {
      let bucket = this.byMethod.get(rule.method);
      if (!bucket) this.byMethod.set(rule.method, (bucket = { byHost: new Map(), anyHost: [] }));
      const host = exactHostName(rule.pattern);
      if (host === undefined) {
        bucket.anyHost.push(rule);
        // Kept in order: rules are visited by precedence, so appending preserves it everywhere.
        for (const list of bucket.byHost.values()) list.push(rule);
      } else {
        let list = bucket.byHost.get(host);
        if (!list) bucket.byHost.set(host, (list = [...bucket.anyHost]));
        list.push(rule);
      }
    }
    this.size = all.length;
  }

  /** The winning rule for the request and its compiled pattern, if any rule takes it. */
  find(method: string, url: RequestUrl | string): { rule: T; pattern: UrlPattern; url: RequestUrl } | undefined {
    const bucket = this.byMethod.get(method.toUpperCase());
    if (!bucket) return undefined;
    const parsed = typeof url === 'string' ? parseRequestUrl(url) : url;
    if (!parsed) return undefined;
    const list = bucket.byHost.get(parsed.hostname) ?? bucket.anyHost;
    for (const rule of list) if (urlMatches(rule.pattern, parsed)) return { rule: rule.value, pattern: rule.pattern, url: parsed };
    return undefined;
  }
}

/** Enabled routes compiled for matching. */
export function compileRoutes<R extends MatchableRoute>(routes: readonly R[]): MockRuleSet<R> {
  return new MockRuleSet(routes, (route) =>
    route.isEnabled === false ? undefined : { id: route.id, createdAt: route.createdAt, method: route.mockData.method, url: route.mockData.mockedUrl });
}

/** Item mocks compiled for matching (their pattern is the item's mocked URL). */
export function compileItemMocks(mocks: readonly DeviceItemMock[]): MockRuleSet<DeviceItemMock> {
  return new MockRuleSet(mocks, (mock) => ({ id: mock.itemId, createdAt: mock.updatedAt, method: mock.method, url: mock.url }));
}

/** The route among `routes` that answers `request` (precedence above), if any. */
export function selectRoute<R extends MatchableRoute>(routes: readonly R[], request: MockRequest): R | undefined {
  return compileRoutes(routes).find(request.method, request.url)?.rule;
}

/** Where a mapRemote route sends `request`; undefined when it does not match or its target is invalid. */
export function mappedUrlFor(route: MatchableRoute, request: MockRequest): string | undefined {
  if (!routeMatches(route, request)) return undefined;
  const pattern = patternOf(route.mockData.mockedUrl);
  const url = parseRequestUrl(request.url);
  return pattern && url ? mapRemoteUrl(pattern, url, route.mockData.mapRemoteUrl ?? '') : undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a route does, in one or two sentences (shown in the editor and the simulator). */
export function explainRoute(route: MatchableRoute): string {
  const data = route.mockData;
  const compiled = compileUrlPattern(data.mockedUrl ?? '');
  if (!compiled.ok) return `Does nothing: ${compiled.error}.`;
  const p = compiled.pattern;
  const where = [
    p.hostText === undefined ? 'any host' : `host ${p.hostText}`,
    p.path === undefined ? 'any path' : `path ${typeof p.path === 'string' ? p.path : `${p.pathPrefix}…`}`,
  ].join(', ');
  const wild = p.source.includes('*') ? " ('*' stands for any text)" : '';
  const query = p.query.length ? ` with ${p.query.map((r) => `${r.key}=${typeof r.value === 'string' ? r.value : r.value.source.replace(/^\^|\$$/g, '').replace(/\(\.\*\)/g, '*')}`).join(' and ')}` : '';
  const target = `${data.method} requests to ${data.mockedUrl}${wild} (${where}${query})`;
  const delay = data.delayMs ? ` after a delay of ${data.delayMs} ms` : '';
  const off = route.isEnabled === false ? ' It is disabled, so it does nothing now.' : '';
  if (data.mode === 'mapRemote') {
    return `Sends ${target} to ${data.mapRemoteUrl || '(no target)'} instead, keeping the path and query as documented${delay}.${off}`;
  }
  if (data.responseMode === 'dynamic') {
    return `Answers ${target} with the response its handler computes${delay}.${off}`;
  }
  const headers = data.headers?.length ? ` and ${plural(data.headers.length, 'header')}` : '';
  const body = data.body ? `a body of ${plural(data.body.length, 'character')}` : 'an empty body';
  return `Answers ${target} with status ${data.statusCode ?? 200}, ${body}${headers}${delay}.${off}`;
}

/**
 * The id of the item whose mock answered this item (its `Spyglass-Intercepted` response header),
 * or undefined. A viewer that receives such an item in a `new_request` message flashes the
 * intercepted icon on that item for 0.5 s (spec 001 §4).
 */
export function interceptedItemId(item: Pick<CapturedItem, 'type' | 'details'>): string | undefined {
  if (item.type !== 'network') return undefined;
  const details = item.details as { mockedBy?: { kind: string; id: string }; response?: { headers?: Record<string, string> } };
  if (details.mockedBy?.kind === 'item') return details.mockedBy.id;
  const headers = details.response?.headers;
  if (!headers) return undefined;
  const wanted = INTERCEPTED_HEADER.toLowerCase();
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === wanted) return value;
  return undefined;
}
