/**
 * The har export (spec 001 §5 and §7: HAR 1.2, network items only, creator version 1.0.0,
 * `spyglass-requests.har`). Written entry by entry so that 100,000 requests never exist as one
 * object tree.
 */
import { PRODUCT_NAME } from './constants';
import type { ExportEncoder } from './export';
import { statusText } from './format';
import type { CapturedItem, HeaderMap, NetworkItem, Timings } from './items';

export const HAR_VERSION = '1.2';
export const HAR_CREATOR = { name: PRODUCT_NAME, version: '1.0.0' } as const;

export interface HarNameValue { name: string; value: string }
export interface HarCookie extends HarNameValue { path?: string; domain?: string; expires?: string; httpOnly?: boolean; secure?: boolean }
export interface HarPostData { mimeType: string; text: string; params?: HarNameValue[]; _encoding?: 'base64' }
export interface HarContent { size: number; mimeType: string; text?: string; encoding?: 'base64' }
export interface HarTimings { blocked: number; dns: number; connect: number; send: number; wait: number; receive: number; ssl: number }

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarCookie[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: HarPostData;
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarCookie[];
    headers: HarNameValue[];
    content: HarContent;
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    /** Transport failure: the request got no response. */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: HarTimings;
  /** The captured item, to find it again. */
  _id: string;
  _mocked?: boolean;
}

export interface HarLog {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

function headerValue(headers: HeaderMap | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  // `name` is lower-case; comparing lengths first spares lower-casing nearly every key.
  for (const key in headers) if (key.length === name.length && key.toLowerCase() === name) return headers[key];
  return undefined;
}

function harHeaders(headers: HeaderMap | undefined): HarNameValue[] {
  const out: HarNameValue[] = [];
  if (headers) for (const name in headers) out.push({ name, value: headers[name]! });
  return out;
}

function requestCookies(headers: HeaderMap | undefined): HarCookie[] {
  const cookie = headerValue(headers, 'cookie');
  if (!cookie) return [];
  const out: HarCookie[] = [];
  for (const pair of cookie.split(';')) {
    const eq = pair.indexOf('=');
    const name = (eq === -1 ? pair : pair.slice(0, eq)).trim();
    if (name) out.push({ name, value: eq === -1 ? '' : pair.slice(eq + 1).trim() });
  }
  return out;
}

/** Set-Cookie lines; several cookies in one captured header are separated by line breaks. */
function responseCookies(headers: HeaderMap | undefined): HarCookie[] {
  const setCookie = headerValue(headers, 'set-cookie');
  if (!setCookie) return [];
  const out: HarCookie[] = [];
  for (const line of setCookie.split(/\r?\n/)) {
    const [first = '', ...attributes] = line.split(';');
    const eq = first.indexOf('=');
    if (eq <= 0) continue;
    const cookie: HarCookie = { name: first.slice(0, eq).trim(), value: first.slice(eq + 1).trim() };
    for (const attribute of attributes) {
      const at = attribute.indexOf('=');
      const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      const value = at === -1 ? '' : attribute.slice(at + 1).trim();
      if (key === 'path') cookie.path = value;
      else if (key === 'domain') cookie.domain = value;
      else if (key === 'httponly') cookie.httpOnly = true;
      else if (key === 'secure') cookie.secure = true;
      else if (key === 'expires') {
        const t = Date.parse(value);
        if (!Number.isNaN(t)) cookie.expires = new Date(t).toISOString();
      }
    }
    out.push(cookie);
  }
  return out;
}

function queryString(url: string, query: Record<string, string> | undefined): HarNameValue[] {
  if (query) return Object.entries(query).map(([name, value]) => ({ name, value }));
  const q = url.indexOf('?');
  if (q === -1) return [];
  const hash = url.indexOf('#', q);
  const search = url.slice(q + 1, hash === -1 ? undefined : hash);
  const out: HarNameValue[] = [];
  // Without '%' or '+' form decoding changes nothing: split by hand. In browsers URLSearchParams
  // is native code, and calling it (or its forEach callback) per pair is most of an entry's cost.
  if (!/[%+]/.test(search)) {
    // URLSearchParams drops one leading '?' too.
    for (const pair of (search.startsWith('?') ? search.slice(1) : search).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      out.push(eq === -1 ? { name: pair, value: '' } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) });
    }
    return out;
  }
  for (const [name, value] of new URLSearchParams(search)) out.push({ name, value });
  return out;
}

/** HAR wants an RFC 3986 URI: a URL with spaces or non-ASCII characters is percent-encoded. */
function harUrl(url: string): string {
  if (/^[\x21-\x7e]*$/.test(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Bytes of a string in UTF-8, counted without encoding it. */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function base64Length(b64: string): number {
  const clean = b64.replace(/[^A-Za-z0-9+/=_-]/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function bodyBytes(body: string | null | undefined, encoding: 'utf8' | 'base64' | undefined): number {
  if (body === null || body === undefined) return 0;
  return encoding === 'base64' ? base64Length(body) : utf8Length(body);
}

const nonNegative = (v: number | undefined) => (v === undefined || !Number.isFinite(v) || v < 0 ? undefined : v);

function metricsSpan(start: string | undefined, end: string | undefined): number | undefined {
  if (!start || !end) return undefined;
  return nonNegative(Date.parse(end) - Date.parse(start));
}

/**
 * All seven HAR timings: from the captured timings, else from the request metrics, else the
 * whole duration as waiting. Unknown optional phases are -1, as HAR prescribes.
 */
export function harTimings(item: NetworkItem): HarTimings {
  const t: Timings = item.details.timings ?? {};
  const m = item.details.request.requestMetrics ?? {};
  const dns = nonNegative(t.dns) ?? metricsSpan(m.domainLookupStartDate, m.domainLookupEndDate);
  const connect = nonNegative(t.connect) ?? nonNegative(t.tcp) ?? metricsSpan(m.connectStartDate, m.connectEndDate);
  const ssl = nonNegative(t.ssl) ?? nonNegative(t.tls) ?? metricsSpan(m.secureConnectionStartDate, m.secureConnectionEndDate);
  const send = nonNegative(t.send) ?? metricsSpan(m.requestStartDate, m.requestEndDate);
  let wait = nonNegative(t.wait) ?? nonNegative(t.ttfb) ?? metricsSpan(m.requestEndDate, m.responseStartDate);
  const receive = nonNegative(t.receive) ?? nonNegative(t.download) ?? metricsSpan(m.responseStartDate, m.responseEndDate);
  const blocked = nonNegative(t.blocked);
  const total = nonNegative(t.total) ?? nonNegative(item.duration ?? undefined);
  if (wait === undefined && total !== undefined) {
    const known = (blocked ?? 0) + (dns ?? 0) + (connect ?? 0) + (send ?? 0) + (receive ?? 0);
    wait = Math.max(0, total - known);
  }
  return { blocked: blocked ?? -1, dns: dns ?? -1, connect: connect ?? -1, send: send ?? 0, wait: wait ?? 0, receive: receive ?? 0, ssl: ssl ?? -1 };
}

function httpVersion(v: string | undefined): string {
  if (!v) return 'HTTP/1.1';
  return /^[0-9.]+$/.test(v) ? `HTTP/${v}` : v;
}

/** The form toISOString writes (and the server stores): HAR takes it as it is. */
const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function startedDateTime(item: NetworkItem): string {
  const started = item.details.request.startedAt;
  // Parsing and re-formatting every date was a third of the cost of an entry (bench 40).
  if (started && CANONICAL_ISO.test(started)) return started;
  const t = started ? Date.parse(started) : Number.NaN;
  if (Number.isNaN(t) && CANONICAL_ISO.test(item.createdAt)) return item.createdAt;
  return new Date(Number.isNaN(t) ? Date.parse(item.createdAt) || 0 : t).toISOString();
}

/** What an entry's request and response share: content types and body sizes, each worked out once. */
function entryParts(item: NetworkItem) {
  const { request, response } = item.details;
  const responseBytes = response ? response.bodySize ?? bodyBytes(response.body, response.bodyEncoding) : 0;
  return {
    timings: harTimings(item),
    requestType: headerValue(request.headers, 'content-type'),
    requestBytes: request.body === null || request.body === undefined ? 0 : request.bodySize ?? bodyBytes(request.body, request.bodyEncoding),
    responseBytes,
    contentType: headerValue(response?.headers, 'content-type')
      ?? (response?.bodyEncoding === 'base64' ? 'application/octet-stream' : 'x-unknown'),
  };
}

const known = (v: number) => (v > 0 ? v : 0);

/** The entry's time: the sum of its known phases (ssl is part of connect), in HAR's order. */
function totalTime(t: HarTimings): number {
  return known(t.blocked) + known(t.dns) + known(t.connect) + known(t.send) + known(t.wait) + known(t.receive);
}

function postDataMimeType(item: NetworkItem, requestType: string | undefined): string {
  return requestType ?? (item.details.request.bodyEncoding === 'base64' ? 'application/octet-stream' : 'text/plain');
}

/** One HAR entry for a network item; bodies go in as captured (base64 ones marked so). */
export function harEntry(item: NetworkItem): HarEntry {
  const { request, response, error, mockedBy } = item.details;
  const parts = entryParts(item);
  const requestBody = request.body;
  const responseBody = response?.body;
  const content: HarContent = { size: parts.responseBytes, mimeType: parts.contentType };
  if (responseBody !== null && responseBody !== undefined) {
    content.text = responseBody;
    if (response?.bodyEncoding === 'base64') content.encoding = 'base64';
  }
  const entry: HarEntry = {
    startedDateTime: startedDateTime(item),
    time: totalTime(parts.timings),
    request: {
      method: request.method,
      url: harUrl(request.url),
      httpVersion: httpVersion(request.httpVersion),
      cookies: requestCookies(request.headers),
      headers: harHeaders(request.headers),
      queryString: queryString(request.url, request.query),
      headersSize: -1,
      bodySize: parts.requestBytes,
    },
    response: {
      status: response?.statusCode ?? 0,
      statusText: response?.statusText ?? statusText(response?.statusCode),
      httpVersion: response ? httpVersion(response.httpVersion ?? request.httpVersion) : '',
      cookies: responseCookies(response?.headers),
      headers: harHeaders(response?.headers),
      content,
      redirectURL: headerValue(response?.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: response ? parts.responseBytes : -1,
    },
    cache: {},
    timings: parts.timings,
    _id: item.id,
  };
  if (requestBody !== null && requestBody !== undefined) {
    entry.request.postData = {
      mimeType: postDataMimeType(item, parts.requestType),
      text: requestBody,
      ...(request.bodyEncoding === 'base64' ? { _encoding: 'base64' as const } : {}),
    };
  }
  if (error) entry.response._error = error;
  if (item.isMocked || mockedBy) entry._mocked = true;
  return entry;
}

const str = JSON.stringify as (value: string) => string;
/** A number as JSON.stringify writes it (null for NaN and infinities). */
const num = (v: number): string => (Number.isFinite(v) ? String(v) : 'null');

function headersJson(headers: HeaderMap | undefined): string {
  let out = '';
  if (headers) for (const name in headers) out += `${out === '' ? '' : ','}{"name":${str(name)},"value":${str(headers[name]!)}}`;
  return `[${out}]`;
}

function queryJson(url: string, query: Record<string, string> | undefined): string {
  // Most captured URLs have no query: skip the array of pairs.
  if (!query && url.indexOf('?') === -1) return '[]';
  let out = '';
  for (const pair of queryString(url, query)) out += `${out === '' ? '' : ','}{"name":${str(pair.name)},"value":${str(pair.value)}}`;
  return `[${out}]`;
}

/** Cookie lists are rare and their keys come in the order of the header's attributes. */
const cookiesJson = (cookies: HarCookie[]): string => (cookies.length === 0 ? '[]' : JSON.stringify(cookies));

/**
 * `JSON.stringify(harEntry(item))`, written directly: the same text (the unit tests hold them
 * equal) without the object tree of every entry and the generic walk over it, which were most of
 * a 100,000-entry export's time (bench 40).
 */
export function harEntryJson(item: NetworkItem): string {
  const { request, response, error, mockedBy } = item.details;
  const parts = entryParts(item);
  const t = parts.timings;
  const requestBody = request.body;
  const responseBody = response?.body;
  const postData = requestBody === null || requestBody === undefined
    ? ''
    : `,"postData":{"mimeType":${str(postDataMimeType(item, parts.requestType))},"text":${str(requestBody)}${request.bodyEncoding === 'base64' ? ',"_encoding":"base64"' : ''}}`;
  const text = responseBody === null || responseBody === undefined
    ? ''
    : `,"text":${str(responseBody)}${response?.bodyEncoding === 'base64' ? ',"encoding":"base64"' : ''}`;
  return `{"startedDateTime":${str(startedDateTime(item))},"time":${num(totalTime(t))}`
    + `,"request":{"method":${str(request.method)},"url":${str(harUrl(request.url))},"httpVersion":${str(httpVersion(request.httpVersion))}`
    + `,"cookies":${cookiesJson(requestCookies(request.headers))},"headers":${headersJson(request.headers)}`
    + `,"queryString":${queryJson(request.url, request.query)},"headersSize":-1,"bodySize":${num(parts.requestBytes)}${postData}}`
    + `,"response":{"status":${num(response?.statusCode ?? 0)},"statusText":${str(response?.statusText ?? statusText(response?.statusCode))}`
    + `,"httpVersion":${str(response ? httpVersion(response.httpVersion ?? request.httpVersion) : '')}`
    + `,"cookies":${cookiesJson(responseCookies(response?.headers))},"headers":${headersJson(response?.headers)}`
    + `,"content":{"size":${num(parts.responseBytes)},"mimeType":${str(parts.contentType)}${text}}`
    + `,"redirectURL":${str(headerValue(response?.headers, 'location') ?? '')},"headersSize":-1,"bodySize":${response ? num(parts.responseBytes) : '-1'}`
    + `${error ? `,"_error":${str(error)}` : ''}}`
    + `,"cache":{},"timings":{"blocked":${num(t.blocked)},"dns":${num(t.dns)},"connect":${num(t.connect)},"send":${num(t.send)},"wait":${num(t.wait)},"receive":${num(t.receive)},"ssl":${num(t.ssl)}}`
    + `,"_id":${str(item.id)}${item.isMocked || mockedBy ? ',"_mocked":true' : ''}}`;
}

const HAR_HEAD = `{"log":{"version":${JSON.stringify(HAR_VERSION)},"creator":${JSON.stringify(HAR_CREATOR)},"entries":[`;

/** Spec 001 §5: HAR export includes only network items; the rest are skipped. */
export function harExportEncoder(): ExportEncoder {
  let written = 0;
  return {
    begin: () => HAR_HEAD,
    encode(items: ArrayLike<CapturedItem>, from: number, to: number): string {
      let out = '';
      for (let i = from; i < to; i++) {
        const item = items[i]!;
        if (item.type !== 'network') continue;
        out += (written++ === 0 ? '\n' : ',\n') + harEntryJson(item);
      }
      return out;
    },
    end: () => (written === 0 ? ']}}\n' : '\n]}}\n'),
  };
}
