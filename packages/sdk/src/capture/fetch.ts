import type { NetworkDetails, NetworkRequest, NetworkResponse } from '@spyglass/protocol';
import { captureBodyInit, captureBytes, readCapped, type CapturedBody } from '../body';
import { buildNetworkItem, newItemId } from '../items';
import { absoluteUrl, errorMessage, headersToRecord, queryOf, type CaptureHooks } from './hooks';
import { runInterceptors, type ForwardOverride, type MockedBy } from './interceptors';

export type FetchFunction = typeof globalThis.fetch;
type FetchInput = Parameters<FetchFunction>[0];

/**
 * Wraps `baseFetch` so that each request becomes a network item: recorded when it starts, then
 * completed (same id) with the response or the transport error. The app gets the very response
 * or error `baseFetch` produced: the body is read from a clone, errors are rethrown untouched.
 */
export function createCapturedFetch(baseFetch: FetchFunction, hooks: CaptureHooks): FetchFunction {
  return async function spyglassFetch(input: FetchInput, init?: RequestInit): Promise<Response> {
    const source = typeof Request !== 'undefined' && input instanceof Request ? input : undefined;
    const url = absoluteUrl(source ? source.url : input instanceof URL ? input.href : String(input));
    if (!hooks.shouldCapture(url)) return baseFetch(input, init);

    const started = Date.now();
    const id = newItemId();
    const createdAt = new Date(started).toISOString();
    const headers = headersToRecord(new Headers(init?.headers ?? source?.headers));
    const method = (init?.method ?? source?.method ?? 'GET').toUpperCase();
    const body = await requestBody(source, init, headers['content-type'], hooks.maxBodyBytes);

    const request: NetworkRequest = { method, url, headers, startedAt: createdAt, ...body };
    const query = queryOf(url);
    if (query) request.query = query;
    let mockedBy: MockedBy | undefined;
    const record = (details: Omit<NetworkDetails, 'request'>) =>
      hooks.record(buildNetworkItem(id, createdAt, { request, ...details, ...(mockedBy ? { mockedBy } : {}) }, { isMocked: !!mockedBy }));
    record({});

    let response: Response;
    try {
      response = await runInterceptors(
        hooks.interceptors,
        { id, method, url, headers, body },
        { markMocked: (by) => (mockedBy = by) },
        (override) => hooks.around(() => (override ? baseFetch(forwarded(input, init, override)) : baseFetch(input, init))),
      );
    } catch (error) {
      record({ error: errorMessage(error), timings: { total: Date.now() - started } });
      throw error;
    }
    const headersAt = Date.now();
    const copy = response.clone();
    void completeFromResponse(copy, hooks.maxBodyBytes).then(({ response: captured, error }) => {
      const end = Date.now();
      const timings = { total: end - started, wait: headersAt - started, ttfb: headersAt - started, receive: end - headersAt, download: end - headersAt };
      record({ response: captured, timings, ...(error ? { error } : {}) });
    });
    return response;
  };
}

async function requestBody(source: Request | undefined, init: RequestInit | undefined, contentType: string | undefined, maxBytes: number): Promise<CapturedBody | undefined> {
  if (init && init.body !== undefined) return captureBodyInit(init.body, contentType, maxBytes);
  if (!source?.body) return undefined;
  const { bytes, size, complete } = await readCapped(source.clone().body!, maxBytes);
  return captureBytes(bytes, contentType, maxBytes, complete ? bytes.length : size);
}

async function completeFromResponse(response: Response, maxBytes: number): Promise<{ response: NetworkResponse; error?: string }> {
  const headers = headersToRecord(response.headers);
  const captured: NetworkResponse = { statusCode: response.status, headers, receivedAt: new Date().toISOString() };
  if (response.statusText) captured.statusText = response.statusText;
  try {
    if (!response.body) {
      // React Native's fetch (whatwg-fetch) has no body streams, only whole-body reads.
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { response: bytes.byteLength ? { ...captured, ...captureBytes(bytes, headers['content-type'], maxBytes) } : captured };
    }
    const { bytes, size, complete } = await readCapped(response.body, maxBytes);
    const declared = Number(headers['content-length']);
    const total = complete ? size : Number.isFinite(declared) && declared > size ? declared : size;
    return { response: { ...captured, ...captureBytes(bytes, headers['content-type'], maxBytes, total) } };
  } catch (error) {
    // The body broke off after the headers (reset, abort): the app sees the same failure.
    return { response: captured, error: errorMessage(error) };
  }
}

function forwarded(input: FetchInput, init: RequestInit | undefined, override: ForwardOverride): Request {
  const original = new Request(input, init);
  const request = new Request(override.url ?? original.url, {
    method: override.method ?? original.method,
    headers: override.headers ?? original.headers,
    body: original.body,
    redirect: original.redirect,
    signal: original.signal,
    // Required by Node's fetch for a streamed body; browsers ignore it.
    duplex: 'half',
  } as RequestInit);
  return request;
}
