/**
 * URL patterns of mocks (docs/mocks.md). A pattern is a URL in which `*` stands for any run of
 * characters: `https://api.example.com/users/*`, `/orders?page=*`, `*.example.com/v1/*`.
 *
 * - With a scheme (`https://`, `*://`) or `//`, or starting with a host, it names the host; a path
 *   alone (`/users/*`) matches every host. A host without a port matches any port.
 * - The path must match the whole request path (one trailing `/` is ignored on both sides); no
 *   path at all matches every path of the host. `*` in the path may span `/`.
 * - Each query parameter of the pattern must be present in the request with an equal value, or a
 *   value matching its `*`s; other parameters of the request do not matter.
 * - `\?` is read as `?` (the dashboard escapes it before sending an item's URL).
 *
 * Everything here is pure and allocation-light: the device matches every request against all
 * of its routes (bench/suites/60-mocks.ts).
 */

const SCHEMES = new Set(['http', 'https', 'ws', 'wss', '*']);
const HOST_CHARS = /^[a-z0-9.\-_:*[\]]+$/;
const BAD_PERCENT = /%(?![0-9a-fA-F]{2})/;

export interface QueryRule {
  key: string;
  /** Exact value, or a RegExp when the value holds `*`. */
  value: string | RegExp;
}

/** A compiled pattern; build it with {@link compileUrlPattern}. */
export interface UrlPattern {
  readonly source: string;
  /** Lower-case scheme without `:`, or undefined for any. */
  readonly scheme: string | undefined;
  /** Host matcher (lower case); undefined for any host. */
  readonly host: string | RegExp | undefined;
  /** The host part as written (lower case), for explanations; undefined for any host. */
  readonly hostText: string | undefined;
  /** Whether the host pattern names a port (else any port matches). */
  readonly hostHasPort: boolean;
  /** Exact path, a RegExp (with one capture per `*`), or undefined for any path. */
  readonly path: string | RegExp | undefined;
  /** Literal start of the path before its first `*`: a cheap first test. */
  readonly pathPrefix: string;
  /** True when the path ends with `*` (mapRemote appends what it matched). */
  readonly pathEndsWithWildcard: boolean;
  readonly query: readonly QueryRule[];
  /** Number of literal (non-`*`) characters: the more, the more specific (docs/mocks.md). */
  readonly specificity: number;
}

export type CompileResult = { ok: true; pattern: UrlPattern } | { ok: false; error: string };

/** A request URL taken apart once, for matching against many patterns. */
export interface RequestUrl {
  readonly href: string;
  readonly scheme: string;
  /** Host name in lower case, without port. */
  readonly hostname: string;
  /** `hostname:port` when the URL names a port, else the host name. */
  readonly host: string;
  /** Path with one trailing `/` removed (except the root). */
  readonly path: string;
  readonly query: URLSearchParams;
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `*` → `(.*)`, everything else literal; anchored. */
function wildcardRegExp(text: string, flags = ''): RegExp {
  return new RegExp(`^${text.split('*').map(escapeRegExp).join('(.*)')}$`, flags);
}

function trimTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Compiles a pattern, or says in words why it is not one. */
export function compileUrlPattern(input: string): CompileResult {
  const fail = (error: string): CompileResult => ({ ok: false, error: `Invalid URL pattern "${input.slice(0, 200)}": ${error}` });
  const source = input.trim();
  if (!source) return fail('it is empty');
  if (/[\s\p{Cc}]/u.test(source)) return fail('it contains white space or control characters');
  if (/\\(?!\?)/.test(source)) return fail("'\\' may only escape '?'");
  if (BAD_PERCENT.test(source)) return fail("'%' must be followed by two hex digits");
  let rest = source.replace(/\\\?/g, '?');
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);

  let scheme: string | undefined;
  let hostPart: string | undefined;
  const schemeMatch = /^([a-zA-Z*][a-zA-Z0-9+.\-*]*):\/\//.exec(rest);
  if (schemeMatch) {
    const name = schemeMatch[1]!.toLowerCase();
    if (!SCHEMES.has(name)) return fail(`scheme "${name}" is not http, https, ws, wss or *`);
    scheme = name === '*' ? undefined : name;
    rest = rest.slice(schemeMatch[0].length);
    hostPart = '';
  } else if (rest.startsWith('//')) {
    rest = rest.slice(2);
    hostPart = '';
  } else if (!rest.startsWith('/') && !rest.startsWith('?')) {
    hostPart = '';
  }
  if (hostPart !== undefined) {
    const end = rest.search(/[/?]/);
    hostPart = (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
    rest = end < 0 ? '' : rest.slice(end);
    if (!hostPart) return fail('the host is missing');
    if (!HOST_CHARS.test(hostPart)) return fail(`host "${hostPart}" has characters a host cannot have`);
    const port = /:([^:\]]*)$/.exec(hostPart)?.[1];
    if (port !== undefined && !/^(\d{1,5}|\*)$/.test(port)) return fail(`port "${port}" is not a number`);
  }

  const q = rest.indexOf('?');
  const rawPath = q >= 0 ? rest.slice(0, q) : rest;
  const rawQuery = q >= 0 ? rest.slice(q + 1) : '';
  if (rawQuery.includes('?')) return fail("'?' may appear only once, before the query");

  let path: string | RegExp | undefined;
  let pathText = '';
  if (rawPath) {
    // The URL parser normalises the pattern's path the way it normalises request paths.
    try {
      pathText = trimTrailingSlash(new URL(`http://pattern.invalid${rawPath}`).pathname);
    } catch {
      return fail('the path is not a URL path');
    }
    path = pathText.includes('*') ? wildcardRegExp(pathText) : pathText;
  }

  const query: QueryRule[] = [];
  let queryLiterals = 0;
  if (rawQuery) {
    for (const part of rawQuery.split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      const rawKey = eq >= 0 ? part.slice(0, eq) : part;
      const rawValue = eq >= 0 ? part.slice(eq + 1) : '';
      if (!rawKey) return fail(`query parameter "${part}" has no name`);
      if (rawKey.includes('*')) return fail(`'*' may stand in a query value, not in the name "${rawKey}"`);
      const key = decodeQueryPart(rawKey);
      const value = decodeQueryPart(rawValue);
      if (key === undefined || value === undefined) return fail(`query parameter "${part}" is not correctly encoded`);
      query.push({ key, value: value.includes('*') ? wildcardRegExp(value, 's') : value });
      queryLiterals += key.length + value.replace(/\*/g, '').length;
    }
  }

  let host: string | RegExp | undefined;
  if (hostPart && hostPart !== '*') host = hostPart.includes('*') ? wildcardRegExp(hostPart) : hostPart;
  const literal = (text: string | undefined) => (text ? text.replace(/\*/g, '').length : 0);
  const star = pathText.indexOf('*');
  return {
    ok: true,
    pattern: {
      source,
      scheme,
      host,
      hostText: host === undefined ? undefined : hostPart,
      hostHasPort: !!hostPart && /:[^:\]]*$/.test(hostPart),
      path,
      pathPrefix: star < 0 ? pathText : pathText.slice(0, star),
      pathEndsWithWildcard: pathText.endsWith('*'),
      query,
      specificity: literal(scheme) + literal(hostPart) + literal(pathText) + queryLiterals,
    },
  };
}

function decodeQueryPart(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Takes a request URL apart; undefined when it is not an absolute URL. */
export function parseRequestUrl(url: string): RequestUrl | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const hostname = parsed.hostname.toLowerCase();
  return {
    href: parsed.href,
    scheme: parsed.protocol.slice(0, -1),
    hostname,
    host: parsed.port ? `${hostname}:${parsed.port}` : hostname,
    path: trimTrailingSlash(parsed.pathname || '/'),
    query: parsed.searchParams,
  };
}

/** Whether a request URL matches a compiled pattern. */
export function urlMatches(pattern: UrlPattern, url: RequestUrl): boolean {
  if (pattern.scheme !== undefined && pattern.scheme !== url.scheme) return false;
  if (pattern.host !== undefined) {
    const host = pattern.hostHasPort ? url.host : url.hostname;
    if (typeof pattern.host === 'string' ? pattern.host !== host : !pattern.host.test(host)) return false;
  }
  if (pattern.path !== undefined) {
    if (typeof pattern.path === 'string') {
      if (pattern.path !== url.path) return false;
    } else if (!url.path.startsWith(pattern.pathPrefix) || !pattern.path.test(url.path)) {
      return false;
    }
  }
  for (const rule of pattern.query) {
    const values = url.query.getAll(rule.key);
    if (values.length === 0) return false;
    const value = rule.value;
    if (!values.some((v) => (typeof value === 'string' ? v === value : value.test(v)))) return false;
  }
  return true;
}

/**
 * Where mapRemote sends a request (docs/mocks.md): the target's scheme, host and port; the
 * request's path, unless the target names a path — then the target's path, followed by what a
 * trailing `*` of the pattern's path matched; the request's query with the target's parameters
 * added. Undefined when the target is not an absolute http(s) URL.
 */
export function mapRemoteUrl(pattern: UrlPattern, url: RequestUrl, target: string): string | undefined {
  let to: URL;
  try {
    to = new URL(target);
  } catch {
    return undefined;
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return undefined;
  const out = new URL(url.href);
  out.protocol = to.protocol;
  out.host = to.host;
  out.hash = '';
  const targetPath = to.pathname;
  if (targetPath && targetPath !== '/') {
    let tail = '';
    if (pattern.pathEndsWithWildcard && pattern.path instanceof RegExp) {
      const match = pattern.path.exec(url.path);
      tail = match?.[match.length - 1] ?? '';
    }
    const base = targetPath.endsWith('/') ? targetPath.slice(0, -1) : targetPath;
    out.pathname = tail ? `${base}${tail.startsWith('/') ? '' : '/'}${tail}` : base;
  }
  to.searchParams.forEach((value, key) => out.searchParams.set(key, value));
  return out.href;
}

/** Whether `text` is an absolute http(s) URL (a mapRemote target). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.host;
  } catch {
    return false;
  }
}
