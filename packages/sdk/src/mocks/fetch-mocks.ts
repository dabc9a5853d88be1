import type { CapturedBody } from '../body';
import type { RequestInterceptor } from '../capture/interceptors';
import { delay, type MockEngine } from './mock-engine';

/** Statuses whose responses cannot carry a body (the Fetch standard refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function textOf(body: CapturedBody | undefined): string | null {
  if (!body || body.body === null) return null;
  return body.bodyEncoding === 'base64' ? null : body.body;
}

/**
 * The link of the fetch interceptor chain that applies mocks: answers with the mock (after its
 * delay), or forwards a mapRemote request to its target; the capture records the item as mocked.
 */
export function mockInterceptor(engine: MockEngine): RequestInterceptor {
  return async (request, next, controls) => {
    if (!engine.peek(request.method, request.url)) return next();
    const decision = await engine.decide({ method: request.method, url: request.url, headers: { ...request.headers }, body: textOf(request.body) });
    if (!decision) return next();
    await delay(decision.delayMs);
    controls.markMocked(decision.mockedBy);
    if (decision.kind === 'forward') return next({ url: decision.url });
    // Response cannot represent informational statuses: they are answered as an error.
    if (decision.status < 200) {
      return new Response(JSON.stringify({ error: `Status ${decision.status} cannot be mocked for fetch` }), { status: 500, headers: { 'Content-Type': 'application/json', ...pick(decision.headers) } });
    }
    return new Response(NULL_BODY.has(decision.status) ? null : decision.body, { status: decision.status, headers: decision.headers });
  };
}

function pick(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'spyglass-intercepted') out[name] = value;
  return out;
}
