import type { NetworkDetails } from '@spyglass/protocol';
import type { CapturedBody } from '../body';

/** A request as interceptors see it: already captured, so reading it costs nothing. */
export interface InterceptedRequest {
  /** Id of the network item that records this request. */
  readonly id: string;
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as captured (size-capped), `undefined` when there is none. */
  readonly body: CapturedBody | undefined;
}

/** Changes applied when an interceptor forwards the request somewhere else (e.g. a mapped host). */
export interface ForwardOverride {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
}

export type MockedBy = NonNullable<NetworkDetails['mockedBy']>;

export interface InterceptorControls {
  /** Records that a mock answered (or redirected) this request: the item shows as mocked. */
  markMocked(by: MockedBy): void;
}

/**
 * A link of the request interceptor chain around the SDK's fetch. It may answer by itself (a mock:
 * return a `Response` without calling `next`), forward the request unchanged (`next()`), or
 * forward it changed (`next({ url })`). Whatever it returns is what the app receives and what the
 * network item records.
 */
export type RequestInterceptor = (
  request: InterceptedRequest,
  next: (override?: ForwardOverride) => Promise<Response>,
  controls: InterceptorControls,
) => Promise<Response>;

/** Runs `interceptors` in order (the first is outermost); `terminal` performs the real request. */
export function runInterceptors(
  interceptors: readonly RequestInterceptor[],
  request: InterceptedRequest,
  controls: InterceptorControls,
  terminal: (override?: ForwardOverride) => Promise<Response>,
): Promise<Response> {
  const step = (index: number, override: ForwardOverride | undefined): Promise<Response> => {
    const interceptor = interceptors[index];
    if (!interceptor) return terminal(override);
    const seen = override ? { ...request, ...override, headers: override.headers ?? request.headers } : request;
    return interceptor(seen, (next) => step(index + 1, next ? { ...override, ...next } : override), controls);
  };
  return step(0, undefined);
}
