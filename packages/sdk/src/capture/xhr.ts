import type { NetworkRequest, NetworkResponse } from '@spyglass/protocol';
import { captureBodyInit, captureBytes, captureText, type CapturedBody } from '../body';
import { buildNetworkItem, newItemId } from '../items';
import { absoluteUrl, queryOf, type CaptureHooks } from './hooks';

interface XhrState {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * The XMLHttpRequest surface used here, typed locally: the SDK compiles without the DOM library
 * so that it stays honest about what exists in Node.
 */
interface Xhr {
  readonly readyState: number;
  readonly status: number;
  readonly statusText: string;
  readonly responseType: string;
  readonly response: unknown;
  readonly responseText: string;
  getAllResponseHeaders(): string;
  addEventListener(type: string, listener: () => void): void;
  open(method: string, url: string | URL, ...rest: unknown[]): void;
  setRequestHeader(name: string, value: string): void;
  send(body?: unknown): void;
}

const STATE = Symbol('spyglass.xhr');
type TrackedXhr = Xhr & { [STATE]?: XhrState };

/**
 * Records XMLHttpRequest traffic (browsers, React Native) by wrapping `open`, `setRequestHeader`
 * and `send` on the prototype; the request itself is left to the runtime. Answers the undo.
 */
export function installXhrCapture(hooks: CaptureHooks): (() => void) | undefined {
  const XhrClass = (globalThis as { XMLHttpRequest?: { prototype: Xhr } }).XMLHttpRequest;
  if (!XhrClass) return undefined;
  const proto = XhrClass.prototype;
  const { open, setRequestHeader, send } = proto;

  proto.open = function (this: TrackedXhr, method: string, url: string | URL, ...rest: unknown[]) {
    this[STATE] = { method: method.toUpperCase(), url: absoluteUrl(String(url)), headers: {} };
    return open.call(this, method, url, ...rest);
  };

  proto.setRequestHeader = function (this: TrackedXhr, name: string, value: string) {
    const state = this[STATE];
    if (state) {
      const key = name.toLowerCase();
      state.headers[key] = state.headers[key] ? `${state.headers[key]}, ${value}` : value;
    }
    return setRequestHeader.call(this, name, value);
  };

  proto.send = function (this: TrackedXhr, body?: unknown) {
    const state = this[STATE];
    // React Native's fetch sends through XMLHttpRequest: the fetch wrapper records those.
    if (state && !hooks.recordedAbove() && hooks.shouldCapture(state.url)) track(this, state, body, hooks);
    return send.call(this, body);
  };

  return () => {
    proto.open = open;
    proto.setRequestHeader = setRequestHeader;
    proto.send = send;
  };
}

function track(xhr: Xhr, state: XhrState, body: unknown, hooks: CaptureHooks): void {
  const started = Date.now();
  const id = newItemId();
  const createdAt = new Date(started).toISOString();
  const request: NetworkRequest = { method: state.method, url: state.url, headers: { ...state.headers }, startedAt: createdAt };
  const query = queryOf(state.url);
  if (query) request.query = query;
  let headersAt = started;
  let failure: string | undefined;

  const bodyReady = captureBodyInit(body, state.headers['content-type'], hooks.maxBodyBytes).catch(() => undefined);
  // A mapRemote mock opened this request again on its target (mocks/xhr-mocks.ts).
  const mockedBy = hooks.mockedBy?.(xhr);
  const mocked = mockedBy ? { mockedBy } : {};
  void bodyReady.then((captured) => {
    Object.assign(request, captured);
    hooks.record(buildNetworkItem(id, createdAt, { request, ...mocked }, { isMocked: !!mockedBy }));
  });

  xhr.addEventListener('readystatechange', () => {
    if (xhr.readyState === 2) headersAt = Date.now();
  });
  xhr.addEventListener('error', () => (failure = 'Network request failed'));
  xhr.addEventListener('timeout', () => (failure = 'Request timed out'));
  xhr.addEventListener('abort', () => (failure = 'Request aborted'));
  xhr.addEventListener('loadend', () => {
    const end = Date.now();
    const timings = { total: end - started, wait: headersAt - started, ttfb: headersAt - started, receive: end - headersAt, download: end - headersAt };
    void Promise.all([bodyReady, failure ? undefined : responseOf(xhr, hooks.maxBodyBytes)]).then(([, response]) => {
      hooks.record(buildNetworkItem(id, createdAt, { request, timings, ...(response ? { response } : {}), ...(failure ? { error: failure } : {}), ...mocked }, { isMocked: !!mockedBy }));
    });
  });
}

async function responseOf(xhr: Xhr, maxBytes: number): Promise<NetworkResponse> {
  const headers = parseHeaders(xhr.getAllResponseHeaders());
  const response: NetworkResponse = { statusCode: xhr.status, headers, receivedAt: new Date().toISOString() };
  if (xhr.statusText) response.statusText = xhr.statusText;
  return { ...response, ...(await responseBody(xhr, headers['content-type'], maxBytes)) };
}

async function responseBody(xhr: Xhr, contentType: string | undefined, maxBytes: number): Promise<CapturedBody | undefined> {
  switch (xhr.responseType) {
    case '':
    case 'text':
      return captureText(xhr.responseText, maxBytes);
    case 'json':
      return xhr.response === null ? undefined : captureText(JSON.stringify(xhr.response), maxBytes);
    case 'arraybuffer':
      return xhr.response ? captureBytes(new Uint8Array(xhr.response as ArrayBuffer), contentType, maxBytes) : undefined;
    case 'blob': {
      const blob = xhr.response as Blob | null;
      return blob ? captureBytes(new Uint8Array(await blob.arrayBuffer()), contentType ?? blob.type, maxBytes) : undefined;
    }
    default:
      // 'document': the parsed DOM; its source text is not kept by the runtime.
      return undefined;
  }
}

function parseHeaders(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}
