import type { NetworkRequest, NetworkResponse } from '@spyglass/protocol';
import { captureBytes } from '../body';
import { copyChunk, decodedBody, emptyBodyCopy, headerRecord, type BodyCopy } from './node-bodies';
import { buildNetworkItem, newItemId } from '../items';
import { errorMessage, queryOf, type CaptureHooks } from './hooks';

/** The parts of node:http's ClientRequest and IncomingMessage used here. */
interface ClientRequestLike {
  method: string;
  protocol: string;
  host: string;
  path: string;
  getHeader(name: string): unknown;
  getHeaders(): Record<string, unknown>;
}
interface IncomingLike {
  statusCode?: number;
  statusMessage?: string;
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
  push(chunk: unknown, encoding?: string): boolean;
  emit(event: string | symbol, ...args: unknown[]): boolean;
}

interface Exchange {
  id: string;
  started: number;
  createdAt: string;
  request: NetworkRequest;
}

/**
 * Records node:http and node:https client requests (so axios, got and other Node clients too)
 * without changing them: bodies are copied as they are written and as the parser pushes them,
 * events are observed through the diagnostics channels and a wrapped `emit`, never through
 * listeners that would change error handling. Node only; answers the undo.
 */
export async function installNodeHttpCapture(hooks: CaptureHooks): Promise<() => void> {
  const [dc, http, zlib] = await Promise.all([import('node:diagnostics_channel'), import('node:http'), import('node:zlib')]);
  const proto = http.ClientRequest.prototype as unknown as Record<'write' | 'end', (...args: unknown[]) => unknown>;
  const ownWrite = Object.getOwnPropertyDescriptor(proto, 'write');
  const ownEnd = Object.getOwnPropertyDescriptor(proto, 'end');
  const { write, end } = proto;
  const requestBodies = new WeakMap<object, BodyCopy>();
  const exchanges = new WeakMap<object, Exchange>();
  const limit = hooks.maxBodyBytes;

  const copy = (body: BodyCopy, chunk: unknown, encoding?: unknown) => copyChunk(body, limit, chunk, encoding);
  const requestBody = (req: object) => {
    let body = requestBodies.get(req);
    if (!body) requestBodies.set(req, (body = emptyBodyCopy()));
    return body;
  };
  proto.write = function (this: object, chunk: unknown, encoding?: unknown, ...rest: unknown[]) {
    copy(requestBody(this), chunk, encoding);
    return write.call(this, chunk, encoding, ...rest);
  };
  proto.end = function (this: object, chunk?: unknown, encoding?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== 'function') copy(requestBody(this), chunk, encoding);
    return end.call(this, chunk, encoding, ...rest);
  };

  const onStart = (message: unknown) => {
    const req = (message as { request: ClientRequestLike }).request;
    const host = String(req.getHeader('host') ?? req.host);
    const url = `${req.protocol}//${host}${req.path}`;
    if (!hooks.shouldCapture(url)) return;
    const started = Date.now();
    const createdAt = new Date(started).toISOString();
    const headers = headerRecord(Object.entries(req.getHeaders()));
    const request: NetworkRequest = { method: req.method, url, headers, startedAt: createdAt, httpVersion: 'HTTP/1.1' };
    const body = requestBodies.get(req);
    if (body?.size) Object.assign(request, captureBytes(Buffer.concat(body.chunks), headers['content-type'], limit, body.size));
    const query = queryOf(url);
    if (query) request.query = query;
    const exchange = { id: newItemId(), started, createdAt, request };
    exchanges.set(req, exchange);
    hooks.record(buildNetworkItem(exchange.id, createdAt, { request }));
  };

  const onResponse = (message: unknown) => {
    const { request: req, response: res } = message as { request: object; response: IncomingLike };
    const exchange = exchanges.get(req);
    if (!exchange) return;
    const headersAt = Date.now();
    // Copied now: clients edit them (axios deletes content-encoding once it decided to unzip).
    const headers = headerRecord(Object.entries(res.headers));
    const responseBody = emptyBodyCopy();
    let settled = false;
    const settle = (error?: string) => {
      if (settled) return;
      settled = true;
      void decodedBody(responseBody, headers, limit, zlib).then((body) => {
        const response: NetworkResponse = { statusCode: res.statusCode ?? 0, headers, receivedAt: new Date().toISOString(), httpVersion: `HTTP/${res.httpVersion}`, ...body };
        if (res.statusMessage) response.statusText = res.statusMessage;
        const endAt = Date.now();
        const timings = { total: endAt - exchange.started, wait: headersAt - exchange.started, ttfb: headersAt - exchange.started, receive: endAt - headersAt, download: endAt - headersAt };
        const mockedBy = hooks.mockedBy?.(req);
        hooks.record(buildNetworkItem(exchange.id, exchange.createdAt, { request: exchange.request, response, timings, ...(error ? { error } : {}), ...(mockedBy ? { mockedBy } : {}) }, { isMocked: !!mockedBy }));
      });
    };
    const push = res.push;
    res.push = function (this: IncomingLike, chunk: unknown, encoding?: string) {
      if (chunk === null) settle();
      else copy(responseBody, chunk, encoding);
      return push.call(this, chunk, encoding);
    };
    const emit = res.emit;
    res.emit = function (this: IncomingLike, event: string | symbol, ...args: unknown[]) {
      if (event === 'aborted' || event === 'error') settle(args[0] instanceof Error ? errorMessage(args[0]) : 'Response aborted');
      return emit.call(this, event, ...args);
    };
  };

  const onError = (message: unknown) => {
    const { request: req, error } = message as { request: object; error: unknown };
    const exchange = exchanges.get(req);
    if (!exchange) return;
    exchanges.delete(req);
    hooks.record(buildNetworkItem(exchange.id, exchange.createdAt, { request: exchange.request, error: errorMessage(error), timings: { total: Date.now() - exchange.started } }));
  };

  dc.subscribe('http.client.request.start', onStart);
  dc.subscribe('http.client.response.finish', onResponse);
  dc.subscribe('http.client.request.error', onError);
  return () => {
    dc.unsubscribe('http.client.request.start', onStart);
    dc.unsubscribe('http.client.response.finish', onResponse);
    dc.unsubscribe('http.client.request.error', onError);
    restore(proto, 'write', ownWrite);
    restore(proto, 'end', ownEnd);
  };
}

function restore(target: object, key: string, own: PropertyDescriptor | undefined): void {
  if (own) Object.defineProperty(target, key, own);
  else delete (target as Record<string, unknown>)[key];
}
