import type { NetworkRequest } from '@spyglass/protocol';
import type { CaptureHooks } from '../capture/hooks';
import type { MockedBy } from '../capture/interceptors';
import { queryOf } from '../capture/hooks';
import { buildNetworkItem, newItemId } from '../items';
import { delay, type MockEngine } from './mock-engine';

interface Xhr {
  readonly responseType: string;
  open(method: string, url: string | URL, ...rest: unknown[]): void;
  setRequestHeader(name: string, value: string): void;
  send(body?: unknown): void;
  dispatchEvent(event: unknown): boolean;
}

interface MockState {
  method: string;
  url: string;
  rest: unknown[];
  headers: Array<[string, string]>;
}

const STATE = Symbol('spyglass.xhr.mock');
type MockableXhr = Xhr & { [STATE]?: MockState };

/**
 * Applies mocks to XMLHttpRequest (browsers, React Native), around the capture: a mocked request
 * is never sent; the instance is given the mock's status, headers and body and fires the events
 * a real answer would, and its item is recorded here (mocked). A mapRemote request is opened
 * again on its target before it is sent. Answers the undo, or undefined without XMLHttpRequest.
 */
export function installXhrMocks(engine: MockEngine, mayMock: (url: string) => boolean, hooks: CaptureHooks, mockedBy: WeakMap<object, MockedBy>): (() => void) | undefined {
  const XhrClass = (globalThis as { XMLHttpRequest?: { prototype: Xhr } }).XMLHttpRequest;
  const EventClass = (globalThis as { Event?: new (type: string) => unknown }).Event;
  if (!XhrClass || !EventClass) return undefined;
  const proto = XhrClass.prototype;
  const { open, setRequestHeader, send } = proto;

  proto.open = function (this: MockableXhr, method: string, url: string | URL, ...rest: unknown[]) {
    const base = (globalThis as { location?: { href?: string } }).location?.href;
    let absolute = String(url);
    try {
      absolute = new URL(absolute, base).href;
    } catch {
      // left as given: it will not match
    }
    this[STATE] = { method: method.toUpperCase(), url: absolute, rest, headers: [] };
    return open.call(this, method, url, ...rest);
  };

  proto.setRequestHeader = function (this: MockableXhr, name: string, value: string) {
    this[STATE]?.headers.push([name, value]);
    return setRequestHeader.call(this, name, value);
  };

  proto.send = function (this: MockableXhr, body?: unknown) {
    const state = this[STATE];
    const peek = state && mayMock(state.url) ? engine.peek(state.method, state.url) : undefined;
    if (!state || !peek) return send.call(this, body);
    if (peek.kind === 'forward') {
      // Synchronously, before sending: open again on the target and repeat the headers.
      open.call(this, state.method, peek.url, ...state.rest);
      for (const [name, value] of state.headers) setRequestHeader.call(this, name, value);
      mockedBy.set(this, peek.mockedBy);
      if (peek.delayMs <= 0) return send.call(this, body);
      // The route's delay, then the request as the app sent it.
      void delay(peek.delayMs).then(() => send.call(this, body));
      return undefined;
    }
    void answer(this, state, typeof body === 'string' ? body : null);
    return undefined;
  };

  async function answer(xhr: MockableXhr, state: MockState, body: string | null): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of state.headers) headers[name.toLowerCase()] = value;
    const started = Date.now();
    const decision = await engine.decide({ method: state.method, url: state.url, headers, body });
    if (!decision || decision.kind !== 'respond') {
      send.call(xhr, body);
      return;
    }
    await delay(decision.delayMs);
    const responseHeaders = Object.fromEntries(Object.entries(decision.headers).map(([k, v]) => [k.toLowerCase(), v]));
    let response: unknown = decision.body;
    if (xhr.responseType === 'json') {
      try {
        response = JSON.parse(decision.body);
      } catch {
        response = null;
      }
    }
    const own = (value: unknown) => ({ value, configurable: true });
    Object.defineProperties(xhr, {
      readyState: own(4),
      status: own(decision.status),
      statusText: own(''),
      responseURL: own(state.url),
      responseText: own(decision.body),
      response: own(response),
      getAllResponseHeaders: own(() => Object.entries(responseHeaders).map(([k, v]) => `${k}: ${v}\r\n`).join('')),
      getResponseHeader: own((name: string) => responseHeaders[name.toLowerCase()] ?? null),
    });
    if (hooks.shouldCapture(state.url)) {
      const createdAt = new Date(started).toISOString();
      const request: NetworkRequest = { method: state.method, url: state.url, headers, startedAt: createdAt, ...(body !== null ? { body } : {}) };
      const query = queryOf(state.url);
      if (query) request.query = query;
      hooks.record(buildNetworkItem(newItemId(), createdAt, {
        request,
        response: { statusCode: decision.status, headers: responseHeaders, body: decision.body, receivedAt: new Date().toISOString() },
        timings: { total: Date.now() - started },
        mockedBy: decision.mockedBy,
      }, { isMocked: true }));
    }
    for (const type of ['readystatechange', 'load', 'loadend']) xhr.dispatchEvent(new EventClass!(type));
  }

  return () => {
    proto.open = open;
    proto.setRequestHeader = setRequestHeader;
    proto.send = send;
  };
}
