// The one build of QuickJS used (release, synchronous, with its own .wasm file) is imported by
// itself rather than through `quickjs-emscripten`, which would bring its three other builds
// (about 5 MB) into every install of the SDK.
import RELEASE_SYNC from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant, newVariant,
  type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { MOCK_LIMITS } from './mock-limits';
import type { ConsoleEntry, MockResponse } from './mocked-routes';

/**
 * Runs dynamic mock handlers — user code — in QuickJS compiled to WebAssembly, with a time limit
 * and a memory limit, on the server (simulate, save checks) and in the SDK (docs/mocks.md). The
 * code sees plain JavaScript and a `console`: no `process`, `require`, modules, network, timers or
 * host objects; nothing here uses `eval`, `new Function` or `vm` in the host.
 *
 * Imported as `@spyglass/protocol/sandbox` so that the web bundle never pulls the WebAssembly in.
 */

export interface SandboxLimits {
  /** Longest a script may run per call (and to load); an endless loop is stopped then. */
  timeoutMs: number;
  /** Heap of one sandbox. */
  memoryBytes: number;
  stackBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 50, memoryBytes: 16 * 1024 * 1024, stackBytes: 512 * 1024 };

/** What a handler receives. */
export interface HandlerRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  query: Record<string, string>;
}

export type HandlerOutcome =
  | { ok: true; response: MockResponse; logs: ConsoleEntry[] }
  | { ok: false; error: string; logs: ConsoleEntry[] };

/** The largest body a handler may return (characters). */
const MAX_RESULT_CHARS = 5 * 1024 * 1024;

let warm: Promise<void> | undefined;
let wasmUrl: string | undefined;

/**
 * Where the engine's WebAssembly file is served, for browser bundles that do not place it beside
 * the script (`@jitl/quickjs-wasmfile-release-sync`'s `emscripten-module.wasm`). Call before the
 * first load.
 */
export function configureSandboxEngine(options: { wasmUrl?: string }): void {
  wasmUrl = options.wasmUrl;
}

/** The WebAssembly global as a value (its types come without the DOM library as a namespace only). */
type WasmMemory = NonNullable<Parameters<typeof newVariant>[1]['wasmMemory']>;
const Wasm = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;
const PAGE_BYTES = 64 * 1024;
/** The memory the engine's build asks for at least. */
const ENGINE_MIN_BYTES = 16 * 1024 * 1024;

/**
 * An engine instance with a WebAssembly memory of its own, at most `memoryBytes` (and at least
 * the 16 MB the build needs). QuickJS built for WebAssembly cannot measure the blocks it
 * allocates (it has no malloc_usable_size), so its own memory limit only refuses a single block
 * above it: a handler could hold any number of 14 MB strings. The memory's `maximum` is a bound
 * the engine cannot pass, and a disposed sandbox gives its memory back (a memory shared by all
 * sandboxes would only ever grow).
 */
async function newEngine(memoryBytes: number): Promise<QuickJSWASMModule> {
  const memory = new Wasm.Memory({ initial: ENGINE_MIN_BYTES / PAGE_BYTES, maximum: Math.ceil(Math.max(memoryBytes, ENGINE_MIN_BYTES) / PAGE_BYTES) });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory, ...(wasmUrl ? { wasmLocation: wasmUrl } : {}) }));
}

/**
 * Compiles the engine and warms it up, once per process: the first run of freshly compiled
 * WebAssembly is many times slower, which would eat a user's time limit. Later instances share
 * the compiled code (the runtime caches it by the module's bytes).
 */
export function loadSandboxEngine(): Promise<void> {
  warm ??= newEngine(ENGINE_MIN_BYTES).then((qjs) => {
    const runtime = qjs.newRuntime();
    const context = runtime.newContext();
    for (const code of [PRELUDE, SERIALIZE, 'JSON.parse(JSON.stringify({ a: [1, "b"] }))', '(async () => 1)()']) {
      const result = context.evalCode(code);
      (result.error ?? result.value).dispose();
    }
    runtime.executePendingJobs();
    context.dispose();
    runtime.dispose();
  });
  return warm;
}

/** The request a handler sees: the query taken from the URL. */
export function handlerRequest(request: { url: string; method: string; headers?: Record<string, string>; body?: string | null }): HandlerRequest {
  const query: Record<string, string> = {};
  try {
    new URL(request.url).searchParams.forEach((value, key) => {
      query[key] = value;
    });
  } catch {
    // not absolute: no query
  }
  return { url: request.url, method: request.method.toUpperCase(), headers: request.headers ?? {}, body: request.body ?? null, query };
}

// Runs inside the sandbox: builds `console` around the one host function it is given, which is
// then no longer reachable by name.
const PRELUDE = `(function (hostLog) {
  const format = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v.stack || v);
    try { const t = JSON.stringify(v); return t === undefined ? String(v) : t; } catch (e) { return String(v); }
  };
  const make = (level) => (...args) => { hostLog(level, args.map(format).join(' ')); };
  globalThis.console = { log: make('log'), info: make('info'), warn: make('warn'), error: make('error'), debug: make('debug') };
})`;

// Turns whatever the handler returned into JSON text, inside the sandbox (so a getter or a cycle
// fails there, within the limits, not in the host).
const SERIALIZE = `(function (result) {
  if (result === null || typeof result !== 'object') return JSON.stringify({ invalid: typeof result });
  if ('error' in result && result.error !== undefined && result.error !== null) return JSON.stringify({ error: String(result.error) });
  const body = result.body;
  const out = { status: result.status, headers: result.headers, bodyIsText: typeof body === 'string' || body === undefined || body === null };
  out.body = out.bodyIsText ? (body == null ? '' : body) : JSON.stringify(body);
  return JSON.stringify(out);
})`;

const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

/**
 * One handler script loaded in its own QuickJS runtime, ready to be called many times (the SDK
 * keeps one per dynamic route). A call that breaks a limit disposes it: `broken` says so.
 */
export class HandlerSandbox {
  private deadline = 0;
  private logs: ConsoleEntry[] = [];
  private disposed = false;
  broken = false;

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly handler: QuickJSHandle,
    private readonly serialize: QuickJSHandle,
    private readonly limits: SandboxLimits,
  ) {}

  /**
   * Loads `code`, which must define `function handler(request)`. Answers the sandbox, or the
   * error (syntax, a throw at load, no handler, a limit) with the console output so far.
   */
  static async create(code: string, limits: Partial<SandboxLimits> = {}): Promise<HandlerSandbox | { error: string; logs: ConsoleEntry[] }> {
    await loadSandboxEngine();
    const all = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
    const qjs = await newEngine(all.memoryBytes);
    const runtime = qjs.newRuntime();
    runtime.setMemoryLimit(all.memoryBytes);
    runtime.setMaxStackSize(all.stackBytes);
    const context = runtime.newContext();
    const logs: ConsoleEntry[] = [];
    // Our own prelude runs without a deadline; the user's code with one.
    let deadline = Infinity;
    // Set once loaded: from then on the calls' deadlines and console apply.
    const loaded: { box?: HandlerSandbox } = {};
    runtime.setInterruptHandler(() => Date.now() > (loaded.box ? loaded.box.deadline : deadline));
    const fail = (error: string) => {
      context.dispose();
      runtime.dispose();
      return { error, logs };
    };

    const hostLog = context.newFunction('hostLog', (levelHandle, messageHandle) => {
      const target = loaded.box ? loaded.box.logs : logs;
      if (target.length >= MOCK_LIMITS.maxConsoleEntries) return;
      const level = context.getString(levelHandle);
      target.push({
        time: new Date().toISOString(),
        message: context.getString(messageHandle).slice(0, MOCK_LIMITS.maxConsoleMessage),
        ...(LEVELS.has(level) ? { level: level as ConsoleEntry['level'] } : {}),
      });
    });
    const prelude = context.evalCode(PRELUDE, 'spyglass-prelude.js');
    const installed = prelude.error ? prelude : context.callFunction(context.unwrapResult(prelude), context.undefined, hostLog);
    if (!prelude.error) prelude.value.dispose();
    hostLog.dispose();
    if (installed.error) {
      installed.error.dispose();
      return fail('The sandbox could not start');
    }
    installed.value.dispose();

    deadline = Date.now() + all.timeoutMs;
    const evaluated = context.evalCode(code, 'handler.js');
    if (evaluated.error) return fail(describeError(context, evaluated.error, all));
    evaluated.value.dispose();
    const handler = context.getProp(context.global, 'handler');
    if (context.typeof(handler) !== 'function') {
      handler.dispose();
      return fail('ReferenceError: the code must define function handler(request)');
    }
    const serialize = context.unwrapResult(context.evalCode(SERIALIZE, 'spyglass-serialize.js'));
    const box = new HandlerSandbox(runtime, context, handler, serialize, all);
    box.logs = logs;
    loaded.box = box;
    return box;
  }

  /** Calls the handler; never throws. A broken limit answers an error and disposes the sandbox. */
  run(request: HandlerRequest): HandlerOutcome {
    if (this.disposed) return { ok: false, error: 'Error: the handler sandbox was disposed', logs: [] };
    this.logs = [];
    this.deadline = Date.now() + this.limits.timeoutMs;
    const outcome = this.call(request);
    const logs = this.logs;
    this.logs = [];
    if (!outcome.ok && this.broken) this.dispose();
    return { ...outcome, logs } as HandlerOutcome;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.handler.dispose();
    this.serialize.dispose();
    this.context.dispose();
    this.runtime.dispose();
  }

  private call(request: HandlerRequest): { ok: true; response: MockResponse } | { ok: false; error: string } {
    const { context } = this;
    const json = context.newString(JSON.stringify(request));
    const parsed = context.evalCode('JSON.parse', 'spyglass-json.js');
    if (parsed.error) {
      json.dispose();
      return this.failed(parsed.error);
    }
    const requestHandle = context.callFunction(parsed.value, context.undefined, json);
    parsed.value.dispose();
    json.dispose();
    if (requestHandle.error) return this.failed(requestHandle.error);

    const called = context.callFunction(this.handler, context.undefined, requestHandle.value);
    requestHandle.value.dispose();
    if (called.error) return this.failed(called.error);

    let result = called.value;
    const state = context.getPromiseState(result);
    if (state.type !== 'fulfilled' || !state.notAPromise) {
      // An async handler: run its jobs (within the same deadline), then read the outcome.
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) {
        result.dispose();
        return this.failed(jobs.error);
      }
      const settled = context.getPromiseState(result);
      result.dispose();
      if (settled.type === 'pending') return { ok: false, error: 'Error: the handler returned a promise that never settled' };
      if (settled.type === 'rejected') return this.failed(settled.error);
      result = settled.value;
    }

    const text = context.callFunction(this.serialize, context.undefined, result);
    result.dispose();
    if (text.error) return this.failed(text.error);
    const serialized = context.typeof(text.value) === 'string' ? context.getString(text.value) : undefined;
    text.value.dispose();
    if (serialized === undefined || serialized.length > MAX_RESULT_CHARS) return { ok: false, error: 'Error: the handler returned a response too large to send' };
    return toResponse(JSON.parse(serialized) as Record<string, unknown>);
  }

  private failed(error: QuickJSHandle): { ok: false; error: string } {
    const message = describeError(this.context, error, this.limits);
    if (/ran longer than|of memory and was stopped|stack overflow/i.test(message)) this.broken = true;
    return { ok: false, error: message };
  }
}

/** A readable error with an excerpt of its stack (shown under the code editor, spec 002 §5). */
function describeError(context: QuickJSContext, handle: QuickJSHandle, limits: SandboxLimits): string {
  let dumped: unknown;
  try {
    dumped = context.dump(handle);
  } catch {
    dumped = undefined;
  }
  handle.dispose();
  const error = (dumped && typeof dumped === 'object' ? dumped : { message: String(dumped) }) as { name?: string; message?: string; stack?: string };
  const message = error.message ?? 'Unknown error';
  if (/interrupted/i.test(message)) return `Error: the handler ran longer than ${limits.timeoutMs} ms and was stopped`;
  if (/out of memory/i.test(message) || dumped === null) return `Error: the handler used more than ${Math.round(limits.memoryBytes / 1024 / 1024)} MB of memory and was stopped`;
  const head = `${error.name ?? 'Error'}: ${message}`;
  const stack = (error.stack ?? '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 5);
  return [head, ...stack.map((l) => `    ${l}`)].join('\n').slice(0, 2000);
}

function toResponse(value: Record<string, unknown>): { ok: true; response: MockResponse } | { ok: false; error: string } {
  if ('invalid' in value) return { ok: false, error: `TypeError: the handler must return an object like { status, headers, body }, not ${String(value.invalid)}` };
  if (typeof value.error === 'string') return { ok: false, error: `Error: ${value.error}` };
  const status = value.status === undefined || value.status === null ? 200 : value.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < MOCK_LIMITS.statusMin || status > MOCK_LIMITS.statusMax) {
    return { ok: false, error: `TypeError: status must be an integer from ${MOCK_LIMITS.statusMin} to ${MOCK_LIMITS.statusMax}, not ${JSON.stringify(status)}` };
  }
  // A handler's answer obeys the limits of a route saved by hand (MOCK_LIMITS): it is delivered
  // the same way, so it must not carry 100,000 headers or a body no route could hold.
  const headers: Record<string, string> = {};
  if (value.headers !== undefined && value.headers !== null) {
    if (typeof value.headers !== 'object' || Array.isArray(value.headers)) return { ok: false, error: 'TypeError: headers must be an object of names and values' };
    const entries = Object.entries(value.headers as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
    if (entries.length > MOCK_LIMITS.maxHeaders) return { ok: false, error: `RangeError: a handler may return at most ${MOCK_LIMITS.maxHeaders} headers, not ${entries.length}` };
    for (const [name, v] of entries) {
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return { ok: false, error: `TypeError: "${name.slice(0, 100)}" is not a header name` };
      if (name.length > MOCK_LIMITS.maxHeaderName) return { ok: false, error: `RangeError: header names may have at most ${MOCK_LIMITS.maxHeaderName} characters` };
      const text = String(v).replace(/[\r\n]+/g, ' ');
      if (text.length > MOCK_LIMITS.maxHeaderValue) return { ok: false, error: `RangeError: the value of header "${name}" has more than ${MOCK_LIMITS.maxHeaderValue} characters` };
      headers[name] = text;
    }
  }
  const body = typeof value.body === 'string' ? value.body : '';
  if (body.length > MOCK_LIMITS.maxBodyChars) return { ok: false, error: `RangeError: the body has ${body.length} characters, more than the ${MOCK_LIMITS.maxBodyChars} a route may answer` };
  if (value.bodyIsText === false && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  return { ok: true, response: { status, headers, body } };
}

/** Loads, runs once and disposes: the server's simulate. */
export async function runHandlerOnce(code: string, request: HandlerRequest, limits?: Partial<SandboxLimits>): Promise<HandlerOutcome> {
  const box = await HandlerSandbox.create(code, limits);
  if (!(box instanceof HandlerSandbox)) return { ok: false, error: box.error, logs: box.logs };
  try {
    return box.run(request);
  } finally {
    box.dispose();
  }
}

/**
 * The save check of a dynamic route (spec 002 §5: syntax and execution): the code loads within
 * the limits and defines a handler. Answers the error excerpt, or undefined.
 */
export async function checkHandlerCode(code: string, limits?: Partial<SandboxLimits>): Promise<string | undefined> {
  const box = await HandlerSandbox.create(code, limits);
  if (!(box instanceof HandlerSandbox)) return box.error;
  box.dispose();
  return undefined;
}
