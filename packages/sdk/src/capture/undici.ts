import type { NetworkRequest, NetworkResponse } from '@spyglass/protocol';
import { captureBytes } from '../body';
import { buildNetworkItem, newItemId } from '../items';
import { errorMessage, queryOf, type CaptureHooks } from './hooks';
import { copyChunk, decodedBody, emptyBodyCopy, headerRecord, type BodyCopy } from './node-bodies';

/** The parts of an undici Request the diagnostics channels carry. */
interface UndiciRequest {
  origin: string | URL;
  path: string;
  method: string;
  /** `[name, value, name, value…]` in undici 7, `"name: value\r\n…"` in undici 6. */
  headers: string[] | string;
}

interface Exchange {
  id: string;
  started: number;
  createdAt: string;
  request: NetworkRequest;
  requestBody: BodyCopy;
  headersAt?: number;
  response?: NetworkResponse;
  responseBody: BodyCopy;
  /** The body is copied from the request's handler (see `copyFromHandler`), not from the channel. */
  copiesFromHandler?: boolean;
}

const CHANNELS = ['create', 'bodyChunkSent', 'headers', 'bodyChunkReceived', 'trailers', 'error'] as const;

/**
 * Records requests of the `undici` package (its `fetch`, `request`, `stream`, and clients on its
 * dispatchers), which bypass both `globalThis.fetch` and node:http, through undici's diagnostics
 * channels: they report each request, the bytes sent and received, and the outcome, without
 * touching the request. Node's own fetch publishes on the same channels: what the SDK's fetch
 * wrapper already records (`hooks.recordedAbove`) is left out. Node only; answers the undo.
 */
export async function installUndiciCapture(hooks: CaptureHooks): Promise<() => void> {
  const [dc, zlib] = await Promise.all([import('node:diagnostics_channel'), import('node:zlib')]);
  const exchanges = new WeakMap<object, Exchange>();
  const limit = hooks.maxBodyBytes;

  const complete = (req: object, error?: string) => {
    const exchange = exchanges.get(req);
    if (!exchange) return;
    exchanges.delete(req);
    const end = Date.now();
    const { request, requestBody, responseBody, headersAt = end, started } = exchange;
    if (requestBody.size) Object.assign(request, captureBytes(Buffer.concat(requestBody.chunks), request.headers['content-type'], limit, requestBody.size));
    const finish = (response: NetworkResponse | undefined) => {
      const timings = { total: end - started, wait: headersAt - started, ttfb: headersAt - started, receive: end - headersAt, download: end - headersAt };
      hooks.record(buildNetworkItem(exchange.id, exchange.createdAt, { request, timings, ...(response ? { response } : {}), ...(error ? { error } : {}) }));
    };
    if (!exchange.response) return finish(undefined);
    const response = exchange.response;
    void decodedBody(responseBody, response.headers, limit, zlib).then((body) => finish({ ...response, ...body }));
  };

  const handlers: Record<(typeof CHANNELS)[number], (message: unknown) => void> = {
    create: (message) => {
      if (hooks.recordedAbove()) return;
      const req = (message as { request: UndiciRequest }).request;
      const url = `${String(req.origin).replace(/\/+$/, '')}${req.path}`;
      if (!hooks.shouldCapture(url)) return;
      const started = Date.now();
      const createdAt = new Date(started).toISOString();
      const request: NetworkRequest = { method: req.method, url, headers: requestHeaders(req.headers), startedAt: createdAt };
      const query = queryOf(url);
      if (query) request.query = query;
      const exchange: Exchange = { id: newItemId(), started, createdAt, request, requestBody: emptyBodyCopy(), responseBody: emptyBodyCopy() };
      exchanges.set(req, exchange);
      exchange.copiesFromHandler = copyFromHandler(req, (chunk) => copyChunk(exchange.responseBody, limit, chunk));
      hooks.record(buildNetworkItem(exchange.id, createdAt, { request: { ...request } }));
    },
    bodyChunkSent: (message) => {
      const { request, chunk } = message as { request: object; chunk: unknown };
      const exchange = exchanges.get(request);
      if (exchange) copyChunk(exchange.requestBody, limit, chunk);
    },
    headers: (message) => {
      const { request, response } = message as { request: object; response: { statusCode: number; headers: Uint8Array[]; statusText?: string } };
      const exchange = exchanges.get(request);
      if (!exchange) return;
      exchange.headersAt = Date.now();
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < response.headers.length; i += 2) pairs.push([String(response.headers[i]), String(response.headers[i + 1])]);
      exchange.response = { statusCode: response.statusCode, headers: headerRecord(pairs), receivedAt: new Date().toISOString() };
      if (response.statusText) exchange.response.statusText = response.statusText;
      // A redirect or 1xx answer is followed by a new request or the final answer.
      exchange.responseBody = emptyBodyCopy();
    },
    bodyChunkReceived: (message) => {
      const { request, chunk } = message as { request: object; chunk: unknown };
      const exchange = exchanges.get(request);
      if (exchange && !exchange.copiesFromHandler) copyChunk(exchange.responseBody, limit, chunk);
    },
    trailers: (message) => complete((message as { request: object }).request),
    error: (message) => {
      const { request, error } = message as { request: object; error: unknown };
      complete(request, errorMessage(error));
    },
  };

  for (const name of CHANNELS) dc.subscribe(`undici:request:${name}`, handlers[name]);
  return () => {
    for (const name of CHANNELS) dc.unsubscribe(`undici:request:${name}`, handlers[name]);
  };
}

/**
 * Copies the response body from the request's own handler. Node 20's bundled undici (6.x)
 * publishes no `bodyChunkReceived`, and once the app has called Node's fetch, the undici
 * package's `fetch` and `request` run on that copy's global dispatcher too (undici copies share
 * it through `Symbol.for('undici.globalDispatcher.1')`): their bodies would be lost. Every undici
 * version since 4 keeps the handler on the request under a symbol described `handler` and passes
 * each body chunk to its `onData`; a proxy of it sees the chunks without changing them. Answers
 * false where the request has no such handler (the channel is then the only source).
 */
function copyFromHandler(req: object, copy: (chunk: unknown) => void): boolean {
  const key = Object.getOwnPropertySymbols(req).find((symbol) => symbol.description === 'handler');
  const handler = key && (req as Record<symbol, unknown>)[key];
  if (!handler || typeof handler !== 'object' || typeof (handler as { onData?: unknown }).onData !== 'function') return false;
  (req as Record<symbol, unknown>)[key] = new Proxy(handler, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'onData' || typeof value !== 'function') return value;
      return function onData(this: unknown, chunk: unknown) {
        copy(chunk);
        return (value as (chunk: unknown) => unknown).call(target, chunk);
      };
    },
  });
  return true;
}

function requestHeaders(raw: string[] | string): Record<string, string> {
  const pairs: [string, string][] = [];
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([String(raw[i]), String(raw[i + 1])]);
  } else {
    for (const line of raw.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) pairs.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
  }
  return headerRecord(pairs);
}
