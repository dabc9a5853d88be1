/**
 * Issue 7, performance: mocks on the device.
 * - Route matching: a request against 1,000 compiled routes (URL parsed once, routes in
 *   precedence order, bucketed by method and host, literal path prefixes) vs one compiled RegExp test of the
 *   URL, measured in the same run; with a match deep in the list and with no match at all.
 * - Dynamic handler: a trivial handler called in a warm QuickJS sandbox vs the same handler as a
 *   plain function of the host (both return their response serialized, as the SDK needs it).
 * - `while (true) {}` in a handler: how long until the sandbox stops it (default limit 50 ms).
 */
import { median, result, type BenchResult } from '../lib';
import { compileRoutes, MockData, type DeviceMockedRoute } from '../../packages/protocol/src/index';
import { DEFAULT_SANDBOX_LIMITS, handlerRequest, HandlerSandbox, loadSandboxEngine } from '../../packages/protocol/src/mocks/sandbox';

const ROUTES = 1000;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** Routes as an app's team would write them: a few hosts, resource paths, some wildcards and queries. */
function routes(): DeviceMockedRoute[] {
  const out: DeviceMockedRoute[] = [];
  for (let i = 0; i < ROUTES; i++) {
    const host = `api${i % 7}.example.com`;
    const shape = i % 4;
    const mockedUrl = shape === 0 ? `https://${host}/v1/resource${i}/*`
      : shape === 1 ? `https://${host}/v1/resource${i}/items/*/detail`
        : shape === 2 ? `/v2/resource${i}?page=*`
          : `https://${host}/v1/resource${i}`;
    out.push({
      id: `route-${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      mockData: MockData.parse({ method: METHODS[i % METHODS.length], mockedUrl, statusCode: 200, body: '{}' }),
    });
  }
  return out;
}

/** Median of `batches` timings of `perBatch` calls, per call, in ms. */
function perCallMs(batches: number, perBatch: number, fn: () => unknown): number {
  for (let i = 0; i < perBatch; i++) fn();
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++) fn();
    times.push((performance.now() - t0) / perBatch);
  }
  return median(times);
}

let sink = 0;

function matchingResults(): BenchResult[] {
  const set = compileRoutes(routes());
  // Route 996 (GET, shape 0): deep in the list, behind 249 other GET routes.
  const deep = 'https://api2.example.com/v1/resource996/orders/17?expand=lines';
  const none = 'https://api2.example.com/v1/unknown/orders/17?expand=lines';
  if (set.find('GET', deep)?.rule.id !== 'route-996' || set.find('GET', none)) throw new Error('bench routes do not match as intended');
  const regexp = /^https:\/\/api2\.example\.com\/v1\/resource996\/.*$/;
  const deepMs = perCallMs(50, 2000, () => (sink += set.find('GET', deep) ? 1 : 0));
  const noneMs = perCallMs(50, 2000, () => (sink += set.find('GET', none) ? 1 : 0));
  const baselineMs = perCallMs(50, 2000, () => (sink += regexp.test(deep) ? 1 : 0));
  return [
    result({ name: 'route matching: 1,000 routes, match deep in the list', value: deepMs, unit: 'ms', baseline: 'one compiled RegExp test of the URL', baselineValue: baselineMs, goal: '≤0.1 ms median', notes: `${(deepMs * 1000).toFixed(2)} µs; URL parsed once per request` }),
    result({ name: 'route matching: 1,000 routes, no match (full scan of the method)', value: noneMs, unit: 'ms', baseline: 'one compiled RegExp test of the URL', baselineValue: baselineMs, goal: '≤0.1 ms median', notes: `${(noneMs * 1000).toFixed(2)} µs` }),
  ];
}

/** The handler of the sandbox runs, as a plain host function (the baseline). */
function hostHandler(request: { url: string; query: Record<string, string> }) {
  return { status: 200, headers: { 'X-Path': request.url }, body: { ok: true, offset: Number(request.query.offset ?? 0) } };
}

async function sandboxResults(): Promise<BenchResult[]> {
  await loadSandboxEngine();
  const code = `function handler(request) {
    return { status: 200, headers: { 'X-Path': request.url }, body: { ok: true, offset: Number(request.query.offset || 0) } };
  }`;
  const box = await HandlerSandbox.create(code);
  if (!(box instanceof HandlerSandbox)) throw new Error(box.error);
  const request = handlerRequest({ url: 'https://api.example.com/todos?offset=20', method: 'GET', headers: { accept: 'application/json' }, body: null });
  const check = box.run(request);
  if (!check.ok) throw new Error(check.error);
  const warmMs = perCallMs(30, 50, () => {
    const outcome = box.run(request);
    sink += outcome.ok ? outcome.response.body.length : 0;
  });
  const hostMs = perCallMs(30, 50, () => {
    const answer = hostHandler(request);
    sink += JSON.stringify({ ...answer, body: JSON.stringify(answer.body) }).length;
  });
  box.dispose();

  const stops: number[] = [];
  for (let i = 0; i < 7; i++) {
    const looping = await HandlerSandbox.create('function handler() { while (true) {} }');
    if (!(looping instanceof HandlerSandbox)) throw new Error(looping.error);
    const t0 = performance.now();
    const outcome = looping.run(request);
    stops.push(performance.now() - t0);
    if (outcome.ok) throw new Error('the loop was not stopped');
    looping.dispose();
  }
  return [
    result({ name: 'dynamic handler: trivial handler, warm sandbox, per call', value: warmMs, unit: 'ms', baseline: 'the same handler as a host function + JSON', baselineValue: hostMs, goal: '≤2 ms', notes: `${(warmMs * 1000).toFixed(0)} µs` }),
    result({ name: 'dynamic handler: while (true) stopped after', value: median(stops), unit: 'ms', baseline: null, baselineValue: null, goal: '≤100 ms', notes: `time limit ${DEFAULT_SANDBOX_LIMITS.timeoutMs} ms; max of 7 runs ${Math.max(...stops).toFixed(1)} ms` }),
  ];
}

export default async function mocksSuite(): Promise<BenchResult[]> {
  const results = [...matchingResults(), ...(await sandboxResults())];
  if (sink === -1) console.log(sink);
  return results;
}
