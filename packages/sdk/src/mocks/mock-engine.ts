import { compileItemMocks, compileRoutes, INTERCEPTED_HEADER, mapRemoteUrl, parseRequestUrl, type MockRuleSet } from '@spyglass/protocol/device';
import type { ConsoleEntry, DeviceItemMock, DeviceMockedRoute, DeviceMocks } from '@spyglass/protocol';
import type { HandlerSandbox } from '@spyglass/protocol/sandbox';
import type { MockedBy } from '../capture/interceptors';
import type { SandboxModule } from '../runtime';

/** A request as the mock engine sees it, whatever client made it (fetch, XHR, node:http). */
export interface MockableRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  /** The body as text, null when there is none. */
  body: string | null;
}

/** What to do with a request (docs/mocks.md, "Order on the device"). */
export type MockDecision =
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string; delayMs: number; mockedBy: MockedBy }
  | { kind: 'forward'; url: string; delayMs: number; mockedBy: MockedBy };

export interface MockEngineHooks {
  /** A dynamic handler's console output (the SDK sends it to the route's console). */
  onHandlerLog(routeId: string, entries: ConsoleEntry[]): void;
  /** A handler failed: the request is answered with a 500 carrying the message. */
  onHandlerError(routeId: string, error: string): void;
}

/** The sandbox module is loaded only once a dynamic route arrives: apps without one never pay for it. */
let sandboxModule: Promise<SandboxModule> | undefined;
let sandboxWasmUrl: string | undefined;

/**
 * The device's mocks: the set the server sent last, compiled for matching. Item mocks come
 * first, then mocked routes (most specific pattern first, newest on ties); a default route
 * answers, a mapRemote route forwards. Dynamic routes run in one warm sandbox per route.
 */
export class MockEngine {
  private revision = -1;
  private items: MockRuleSet<DeviceItemMock> = compileItemMocks([]);
  private routes: MockRuleSet<DeviceMockedRoute> = compileRoutes<DeviceMockedRoute>([]);
  private readonly sandboxes = new Map<string, { code: string; box: Promise<HandlerSandbox | { error: string; logs: ConsoleEntry[] }> }>();

  /**
   * `importSandbox`: the runtime's way to load the handler sandbox, absent where it cannot run
   * (React Native has no WebAssembly). `wasmUrl`: where a browser app serves the sandbox's
   * WebAssembly (SpyglassOptions.mockSandboxWasmUrl).
   */
  constructor(private readonly hooks: MockEngineHooks, private readonly importSandbox?: () => Promise<SandboxModule>, wasmUrl?: string) {
    sandboxWasmUrl ??= wasmUrl;
  }

  private loadSandbox(): Promise<SandboxModule> {
    const load = this.importSandbox;
    if (!load) return Promise.reject(new Error('Dynamic mocked routes need WebAssembly, which this runtime does not have'));
    return (sandboxModule ??= load().then((module) => {
      if (sandboxWasmUrl) module.configureSandboxEngine({ wasmUrl: sandboxWasmUrl });
      return module;
    }));
  }

  /** How many item mocks and routes are applied. */
  get counts(): { routes: number; itemMocks: number } {
    return { routes: this.routes.size, itemMocks: this.items.size };
  }

  get isEmpty(): boolean {
    return this.routes.size === 0 && this.items.size === 0;
  }

  /** Applies a `mocks` command's set; an older set than the one applied is ignored. Throws on a bad set. */
  apply(args: unknown): { routes: number; itemMocks: number } {
    const mocks = deviceMocks(args);
    if (mocks.revision < this.revision) return this.counts;
    this.revision = mocks.revision;
    this.items = compileItemMocks(mocks.itemMocks);
    this.routes = compileRoutes(mocks.routes);
    const dynamic = new Map(mocks.routes.filter((r) => r.mockData.mode === 'default' && r.mockData.responseMode === 'dynamic').map((r) => [r.id, r.mockData.code]));
    for (const [id, entry] of this.sandboxes) {
      if (dynamic.get(id) !== entry.code) {
        this.sandboxes.delete(id);
        void entry.box.then((box) => 'run' in box && box.dispose());
      }
    }
    // Loaded now, so that the first matching request does not wait for the WebAssembly.
    for (const [id, code] of dynamic) if (!this.sandboxes.has(id)) this.sandboxes.set(id, { code, box: this.sandboxFor(code) });
    return this.counts;
  }

  /** A new connection starts without mocks until the server sends its set (docs/protocol.md §6). */
  reset(): void {
    this.revision = -1;
    this.apply({ revision: 0, routes: [], itemMocks: [] });
    this.revision = -1;
  }

  /**
   * What would take this request, decided without its body: clients that must choose before the
   * body is written (node:http) use it; the answer itself comes from `decide`.
   */
  peek(method: string, url: string): { kind: 'respond' } | Extract<MockDecision, { kind: 'forward' }> | undefined {
    if (this.isEmpty) return undefined;
    const parsed = parseRequestUrl(url);
    if (!parsed) return undefined;
    if (this.items.find(method, parsed)) return { kind: 'respond' };
    const found = this.routes.find(method, parsed);
    if (!found) return undefined;
    const data = found.rule.mockData;
    if (data.mode !== 'mapRemote') return { kind: 'respond' };
    const target = mapRemoteUrl(found.pattern, parsed, data.mapRemoteUrl);
    return target ? { kind: 'forward', url: target, delayMs: data.delayMs, mockedBy: { kind: 'mapRemote', id: found.rule.id, mappedUrl: target } } : undefined;
  }

  /** The decision for a request, or undefined to let it through untouched. */
  async decide(request: MockableRequest): Promise<MockDecision | undefined> {
    if (this.isEmpty) return undefined;
    const url = parseRequestUrl(request.url);
    if (!url) return undefined;
    const item = this.items.find(request.method, url);
    if (item) {
      const mock = item.rule;
      return {
        kind: 'respond', status: mock.statusCode, body: mock.body, delayMs: mock.delayMs,
        headers: withIntercepted(mock.headers, mock.itemId), mockedBy: { kind: 'item', id: mock.itemId },
      };
    }
    const found = this.routes.find(request.method, url);
    if (!found) return undefined;
    const route = found.rule;
    const data = route.mockData;
    if (data.mode === 'mapRemote') {
      const target = mapRemoteUrl(found.pattern, url, data.mapRemoteUrl);
      if (!target) return undefined;
      return { kind: 'forward', url: target, delayMs: data.delayMs, mockedBy: { kind: 'mapRemote', id: route.id, mappedUrl: target } };
    }
    const mockedBy: MockedBy = { kind: 'route', id: route.id };
    if (data.responseMode === 'dynamic') {
      const answer = await this.runHandler(route, request);
      return { kind: 'respond', ...answer, headers: withIntercepted(answer.headers, route.id), delayMs: data.delayMs, mockedBy };
    }
    const headers: Record<string, string> = {};
    for (const { key, value } of data.headers) if (key) headers[key] = value;
    return { kind: 'respond', status: data.statusCode, headers: withIntercepted(headers, route.id), body: data.body, delayMs: data.delayMs, mockedBy };
  }

  private sandboxFor(code: string): Promise<HandlerSandbox | { error: string; logs: ConsoleEntry[] }> {
    return this.loadSandbox().then((m) => m.HandlerSandbox.create(code), (error: unknown) => ({ error: `Error: ${(error as Error).message}`, logs: [] }));
  }

  private async runHandler(route: DeviceMockedRoute, request: MockableRequest): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    let entry = this.sandboxes.get(route.id);
    if (!entry) {
      entry = { code: route.mockData.code, box: this.sandboxFor(route.mockData.code) };
      this.sandboxes.set(route.id, entry);
    }
    const box = await entry.box;
    const outcome = 'run' in box ? box.run((await this.loadSandbox()).handlerRequest(request)) : { ok: false as const, error: box.error, logs: box.logs };
    // A handler stopped at a limit leaves a disposed sandbox: the next request loads it afresh.
    if ('run' in box && box.broken && this.sandboxes.get(route.id) === entry) this.sandboxes.delete(route.id);
    if (outcome.logs.length) this.hooks.onHandlerLog(route.id, outcome.logs);
    if (outcome.ok) return outcome.response;
    this.hooks.onHandlerError(route.id, outcome.error);
    return { status: 500, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error: `Mock handler failed: ${outcome.error}` }) };
  }
}

/**
 * The set of a `mocks` command. The server built it from routes it validated when they were
 * saved, so the device checks only the frame's outline rather than carrying every mock schema.
 */
function deviceMocks(args: unknown): DeviceMocks {
  const set = args as Partial<DeviceMocks> | null;
  if (typeof set?.revision !== 'number' || !Number.isInteger(set.revision) || set.revision < 0) throw new Error('revision must be a non-negative integer');
  if (!Array.isArray(set.routes) || !Array.isArray(set.itemMocks)) throw new Error('routes and itemMocks must be arrays');
  return set as DeviceMocks;
}

function withIntercepted(headers: Record<string, string>, id: string): Record<string, string> {
  const wanted = INTERCEPTED_HEADER.toLowerCase();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== wanted) out[name] = value;
  out[INTERCEPTED_HEADER] = id;
  return out;
}

/** Waits `ms` (0: not at all). */
export function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
