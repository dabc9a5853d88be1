import {
  DEFAULT_FEATURE_TOGGLES, DeviceInfo, DeviceItem, FeatureToggles, ITEM_LIMITS, PROTOCOL_VERSION,
  type CommandFrame, type ErrorFrame, type FeatureToggles as Toggles, type HelloFrame, type WelcomeFrame,
} from '@spyglass/protocol';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { bytesToBase64 } from './body';
import { installConsoleCapture } from './capture/console';
import { createCapturedFetch, type FetchFunction } from './capture/fetch';
import type { CaptureHooks } from './capture/hooks';
import type { RequestInterceptor } from './capture/interceptors';
import { installNodeHttpCapture } from './capture/node-http';
import { installUndiciCapture } from './capture/undici';
import { installXhrCapture } from './capture/xhr';
import type { MockedBy } from './capture/interceptors';
import { mockInterceptor } from './mocks/fetch-mocks';
import { MockEngine } from './mocks/mock-engine';
import { installNodeHttpMocks } from './mocks/node-http-mocks';
import { installXhrMocks } from './mocks/xhr-mocks';
import { Connection, type ConnectionStatus } from './connection';
import { detectDeviceInfo } from './device-info';
import { SpyglassError } from './errors';
import { defaultStorage, loadInstallId, type KeyValueStorage } from './install-id';
import {
  buildAnalyticsItem, buildEventItem, buildLogItem, buildScreenshotItem,
  type AnalyticsOptions, type EventOptions, type LogOptions, type ScreenshotInput,
} from './items';
import { TokenBucket } from './token-bucket';
import { DEFAULT_OUTBOX, Outbox, type OutboxOptions, type OutboxStats } from './outbox';
import { deviceSocketUrl, isNode, type WebSocketConstructor } from './websocket';

/** Options of {@link createSpyglass}. */
export interface SpyglassOptions {
  /** Base URL of the Spyglass server, e.g. `https://spyglass.example.com`. */
  serverUrl: string;
  /** The account's API key (Settings → API key), `sg_live_...`. */
  apiKey: string;
  /**
   * Device fields of the dashboard (name, model, OS, app version, bundle id, battery, screen,
   * locale...). What the SDK can detect by itself is filled in; these values win. React Native
   * apps should pass `platform: Platform.OS`.
   */
  device?: Partial<DeviceInfo>;
  /** A fixed device id. By default one is created on first run and kept in `storage`. */
  installId?: string;
  /** Where the install id is kept: `localStorage` by default in browsers, memory elsewhere. */
  storage?: KeyValueStorage;
  /**
   * What is captured automatically. `fetch` and `xhr` replace the global functions, `http`
   * records in Node the node:http/https client requests (axios and other Node clients) and those
   * of the `undici` package: all on by default. `console` mirrors console output as log items
   * (default off).
   */
  capture?: { fetch?: boolean; xhr?: boolean; http?: boolean; console?: boolean };
  /** Bodies larger than this are cut (the item says so). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Requests whose URL starts with one of these strings or matches one of these patterns are not captured. */
  ignoreUrls?: (string | RegExp)[];
  /** Memory bound of what waits for the server (items and characters), and batch sizes. */
  outbox?: Partial<OutboxOptions>;
  /** Batches sent and not yet acknowledged before the SDK waits for acks. Default 8. */
  maxInFlightBatches?: number;
  /** How long captured items may wait to share a batch. Default 25 ms. */
  flushIntervalMs?: number;
  reconnect?: Partial<BackoffOptions>;
  /** A WebSocket implementation; by default `ws` in Node and the global one elsewhere. */
  WebSocket?: WebSocketConstructor;
  /** Answers the dashboard's Take Screenshot: returns the image. Without it the command fails politely. */
  screenshotCapturer?: () => Promise<ScreenshotInput> | ScreenshotInput;
  /** Called by the dashboard's Open Debug Window: show your Spyglass sheet. */
  onOpenSheet?: () => Promise<void> | void;
  /** Every error the SDK reports (also available as the `error` event). */
  onError?: (error: SpyglassError) => void;
  /**
   * Browsers: the URL where the app serves `emscripten-module.wasm` of
   * `@jitl/quickjs-wasmfile-release-sync`, which dynamic mocked routes run in. Bundlers that copy
   * it beside the bundle need nothing; Node needs nothing.
   */
  mockSandboxWasmUrl?: string;
  /** Random source for the reconnect jitter (a seeded one makes runs reproducible). */
  random?: () => number;
}

/** Counters of the client (see {@link SpyglassClient.stats}). */
export interface SpyglassStats extends OutboxStats {
  status: ConnectionStatus;
  /** Items not captured because their feature toggle is off. */
  skipped: number;
}

export interface SpyglassEvents {
  status: ConnectionStatus;
  /** The server accepted this device. */
  welcome: WelcomeFrame;
  error: SpyglassError;
  featureToggles: Toggles;
  /** A command from the dashboard, after the SDK handled it. */
  command: CommandFrame;
}

/** A connected Spyglass device (see {@link createSpyglass}). */
export interface SpyglassClient {
  readonly status: ConnectionStatus;
  /** The device id the server knows this device by, once welcomed. */
  readonly deviceId: string | undefined;
  /** What the dashboard lets this device capture. */
  readonly featureToggles: Readonly<Toggles>;
  readonly breakpointEnabled: boolean;
  /**
   * A fetch that records its requests through this client, whatever `capture.fetch` says; it
   * wraps the global fetch as it was before the SDK started.
   */
  readonly fetch: FetchFunction;
  /** Records a log line. Answers the item id, or undefined when logs are toggled off. */
  log(message: string, options?: LogOptions): string | undefined;
  /** Records an app event (a screen view, a tap...). */
  event(name: string, options?: EventOptions): string | undefined;
  /** Records an image, e.g. one your app rendered itself. */
  screenshot(input: ScreenshotInput): string | undefined;
  /** Records an analytics event as the app sends it to Firebase Analytics (or any other). */
  analyticsEvent(name: string, payload?: Record<string, unknown>, options?: AnalyticsOptions): string | undefined;
  /** Sends changed device fields (battery, orientation, memory...). */
  updateDevice(fields: Partial<DeviceInfo>): void;
  /**
   * Adds a link to the request interceptor chain of captured fetches (mocks use it). Answers
   * its removal.
   */
  addInterceptor(interceptor: RequestInterceptor): () => void;
  on<K extends keyof SpyglassEvents>(event: K, listener: (value: SpyglassEvents[K]) => void): () => void;
  /** Resolves once everything captured so far is acknowledged by the server. */
  flush(): Promise<void>;
  stats(): SpyglassStats;
  /** Closes the connection and restores the patched globals. What is unsent is discarded. */
  stop(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Starts Spyglass: connects this app as a device of the account of `apiKey` and streams what it
 * captures. Errors the app must know about (a wrong key, an unsupported protocol version, the
 * device limit) arrive through `onError` and the `error` event, with `fatal: true`.
 *
 * @example
 * const spyglass = createSpyglass({ serverUrl: 'https://spyglass.example.com', apiKey: 'sg_live_...' });
 * spyglass.log('Checkout opened', { level: 'info' });
 */
export function createSpyglass(options: SpyglassOptions): SpyglassClient {
  return new Client(options);
}

/** `Spyglass.start(options)` is {@link createSpyglass}. */
export const Spyglass = { start: createSpyglass } as const;

class Client implements SpyglassClient {
  private readonly outbox: Outbox;
  private readonly connection: Connection;
  private readonly listeners = new Map<keyof SpyglassEvents, Set<(value: never) => void>>();
  private readonly interceptors: RequestInterceptor[] = [];
  /** The mocks the dashboard set for this device (docs/mocks.md). */
  private readonly mocks: MockEngine;
  /** node:http requests and XMLHttpRequests a mock answered or redirected, for their items. */
  private readonly mockedRequests = new WeakMap<object, MockedBy>();
  private readonly restore: (() => void)[] = [];
  private readonly maxInFlight: number;
  private readonly flushIntervalMs: number;
  private readonly device: Promise<DeviceInfo>;
  private readonly installId: Promise<string>;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private toggles: Toggles = { ...DEFAULT_FEATURE_TOGGLES };
  private skipped = 0;
  private stopped = false;
  private scope: <T>(request: () => T) => T = (request) => request();
  private insideScope: () => boolean = () => false;
  private fetchDepth = 0;
  private failure: SpyglassError | undefined;
  private rate: TokenBucket | undefined;
  /** The server asked for a pause (rate limit): nothing is sent before. */
  private resumeAt = 0;
  readonly fetch: FetchFunction;
  status: ConnectionStatus = 'connecting';
  deviceId: string | undefined;
  breakpointEnabled = false;

  constructor(private readonly options: SpyglassOptions) {
    const given = DeviceInfo.partial().safeParse(options.device ?? {});
    if (!given.success) throw new TypeError(`Spyglass: invalid device fields: ${given.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.outbox = new Outbox({ ...DEFAULT_OUTBOX, ...options.outbox });
    this.maxInFlight = options.maxInFlightBatches ?? 8;
    this.flushIntervalMs = options.flushIntervalMs ?? 25;
    this.device = detectDeviceInfo().then((detected) => ({ ...detected, ...given.data }));
    this.installId = options.installId ? Promise.resolve(options.installId) : loadInstallId(options.storage ?? defaultStorage());

    this.mocks = new MockEngine({
      onHandlerLog: (routeId, entries) => {
        for (const entry of entries) {
          const level = entry.level === 'error' ? 'error' : entry.level === 'warn' ? 'warning' : entry.level === 'debug' ? 'debug' : 'info';
          this.log(entry.message, { level, category: 'mock', name: 'handler', metadata: { routeId } });
        }
      },
      onHandlerError: (routeId, error) => this.log(`Mock handler failed: ${error}`, { level: 'error', category: 'mock', name: 'handler', metadata: { routeId } }),
    }, options.mockSandboxWasmUrl);
    // The outermost link: mocks see the request as the app made it.
    this.interceptors.push(mockInterceptor(this.mocks));
    const hooks = this.captureHooks();
    const originalFetch = globalThis.fetch;
    const baseFetch = originalFetch.bind(globalThis);
    this.fetch = createCapturedFetch(baseFetch, hooks);
    const capture = { fetch: true, xhr: true, http: true, console: false, ...options.capture };
    if (capture.fetch) {
      const ours = this.fetch;
      globalThis.fetch = ours;
      this.restore.push(() => {
        if (globalThis.fetch === ours) globalThis.fetch = originalFetch;
      });
    }
    if (capture.xhr) {
      // Mocks wrap outside the capture, so that a mocked XMLHttpRequest is still recorded.
      const undo = installXhrCapture(hooks);
      if (undo) this.restore.push(undo);
      const undoMocks = installXhrMocks(this.mocks, (url) => this.mayMock(url), hooks, this.mockedRequests);
      if (undoMocks) this.restore.push(undoMocks);
    }
    if (capture.http && isNode()) void this.captureNodeClients(hooks);
    if (capture.console) {
      this.restore.push(installConsoleCapture((message, logOptions) => {
        if (this.toggles.logs) this.record(buildLogItem(message, logOptions));
      }));
    }

    this.connection = new Connection(
      {
        url: deviceSocketUrl(options.serverUrl),
        hello: () => this.hello(),
        backoff: { ...DEFAULT_BACKOFF, ...options.reconnect },
        random: options.random ?? Math.random,
        WebSocket: options.WebSocket,
        welcomeTimeoutMs: 15_000,
      },
      {
        welcome: (frame) => this.welcomed(frame),
        ack: (seq) => {
          this.outbox.ack(seq);
          this.settle();
          this.pump();
        },
        error: (frame) => this.serverError(frame),
        command: (frame) => void this.command(frame),
        unknownCommand: (id, name) => {
          this.connection.send(JSON.stringify({ type: 'result', commandId: id, ok: false, error: `Unknown command: ${name}` }));
        },
        status: (status) => {
          this.status = status;
          this.emit('status', status);
        },
        fatal: (error) => {
          this.failure = error;
          // Nothing captured from now on could be delivered: give the app its globals back.
          this.stopped = true;
          for (const undo of this.restore.splice(0)) undo();
          this.report(error);
          this.settle();
        },
      },
    );
    this.connection.start();
  }

  get featureToggles(): Readonly<Toggles> {
    return this.toggles;
  }

  log(message: string, options: LogOptions = {}): string | undefined {
    if (!this.toggles.logs) return this.skip();
    return this.record(buildLogItem(message.slice(0, ITEM_LIMITS.maxMessageLength), options));
  }

  event(name: string, options?: EventOptions): string | undefined {
    if (!this.toggles.events) return this.skip();
    return this.record(buildEventItem(name, options));
  }

  screenshot(input: ScreenshotInput): string | undefined {
    return this.record(buildScreenshotItem(input, bytesToBase64));
  }

  analyticsEvent(name: string, payload?: Record<string, unknown>, options?: AnalyticsOptions): string | undefined {
    if (!this.toggles.events) return this.skip();
    return this.record(buildAnalyticsItem(name, payload, options));
  }

  updateDevice(fields: Partial<DeviceInfo>): void {
    const parsed = DeviceInfo.partial().safeParse(fields);
    if (!parsed.success) {
      this.report(new SpyglassError('bad_frame', `Invalid device fields: ${parsed.error.message}`));
      return;
    }
    void this.device.then((device) => {
      Object.assign(device, parsed.data);
      this.connection.send(JSON.stringify({ type: 'device_info', device }));
    });
  }

  addInterceptor(interceptor: RequestInterceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      const index = this.interceptors.indexOf(interceptor);
      if (index >= 0) this.interceptors.splice(index, 1);
    };
  }

  on<K extends keyof SpyglassEvents>(event: K, listener: (value: SpyglassEvents[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  flush(): Promise<void> {
    this.pump(true);
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.settle();
    });
  }

  stats(): SpyglassStats {
    return { ...this.outbox.stats(), status: this.status, skipped: this.skipped };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.flushTimer);
    for (const undo of this.restore.splice(0)) undo();
    this.connection.stop();
    this.failure ??= new SpyglassError('connection', 'Spyglass was stopped');
    this.settle();
  }

  /** node:http/https and the undici package, which bypass the fetch wrapper. */
  private async captureNodeClients(hooks: CaptureHooks): Promise<void> {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const insideFetch = new AsyncLocalStorage<true>();
    // Node's fetch reaches undici after awaits of its own: the mark must follow the async context.
    this.scope = (request) => insideFetch.run(true, request);
    this.insideScope = () => insideFetch.getStore() === true;
    const undos = await Promise.all([
      installNodeHttpCapture(hooks), installUndiciCapture(hooks), installNodeHttpMocks(this.mocks, (url) => this.mayMock(url), this.mockedRequests),
    ]);
    for (const undo of undos) {
      if (this.stopped) undo();
      else this.restore.push(undo);
    }
  }

  private isIgnored(url: string): boolean {
    const ignore = [this.options.serverUrl.replace(/\/+$/, ''), ...(this.options.ignoreUrls ?? [])];
    return ignore.some((rule) => (typeof rule === 'string' ? url.startsWith(rule) : rule.test(url)));
  }

  /** Mocks apply where requests are captured: network toggle on, URL not ignored. */
  private mayMock(url: string): boolean {
    return this.toggles.network && !this.isIgnored(url);
  }

  private captureHooks(): CaptureHooks {
    return {
      shouldCapture: (url) => {
        if (!this.toggles.network) {
          this.skipped++;
          return false;
        }
        return !this.isIgnored(url);
      },
      mockedBy: (request) => this.mockedRequests.get(request),
      maxBodyBytes: Math.min(this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, ITEM_LIMITS.maxBodyBytes),
      interceptors: this.interceptors,
      record: (item) => void this.record(item),
      around: (request) => {
        // React Native's fetch opens its XMLHttpRequest synchronously, within this call.
        this.fetchDepth++;
        try {
          return this.scope(request);
        } finally {
          this.fetchDepth--;
        }
      },
      recordedAbove: () => this.fetchDepth > 0 || this.insideScope(),
    };
  }

  /** Validates with the protocol's schema, so one bad item never costs the server a whole batch. */
  private record(item: DeviceItem): string | undefined {
    const checked = DeviceItem.safeParse(item);
    if (!checked.success) {
      this.report(new SpyglassError('invalid_item', `Item not sent: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`));
      return undefined;
    }
    this.outbox.add(item.id, JSON.stringify(item));
    this.scheduleFlush();
    return item.id;
  }

  private skip(): undefined {
    this.skipped++;
    return undefined;
  }

  private async hello(): Promise<HelloFrame> {
    const [deviceId, device] = await Promise.all([this.installId, this.device]);
    return { type: 'hello', protocolVersion: PROTOCOL_VERSION, apiKey: this.options.apiKey, deviceId, device };
  }

  private welcomed(frame: WelcomeFrame): void {
    this.deviceId = frame.deviceId;
    this.outbox.limitBatches(frame.limits.maxItemsPerFrame, frame.limits.maxFrameBytes);
    this.rate = new TokenBucket(frame.limits.itemsPerSecond);
    this.resumeAt = 0;
    this.breakpointEnabled = frame.breakpointEnabled;
    this.setToggles(frame.featureToggles);
    // Each connection starts without mocks; the server sends the device's set right after.
    this.mocks.reset();
    this.emit('welcome', frame);
    // Whatever the previous socket carried without an ack goes again, in order.
    this.outbox.markAllUnsent();
    this.pump(true);
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.pump(true);
    }, this.flushIntervalMs);
  }

  private pumpLater(delayMs: number): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.pump(true);
    }, Math.max(1, delayMs));
  }

  /**
   * Sends batches due again first, then new ones while the in-flight window has room, within the
   * server's item rate and after any pause it asked for.
   */
  private pump(force = false): void {
    if (!force && this.flushTimer !== undefined) return;
    while (this.connection.isReady) {
      const wait = this.resumeAt - Date.now();
      if (wait > 0) return this.pumpLater(wait);
      const allowed = this.rate?.available() ?? Infinity;
      let batch = this.outbox.nextUnsent();
      if (batch) {
        const needed = Math.min(batch.ids.length, this.rate?.capacity ?? 0);
        if (allowed < needed) return this.pumpLater(this.rate!.msUntil(needed));
      } else {
        if (!this.outbox.hasQueued || this.outbox.batchCount >= this.maxInFlight) return;
        if (allowed < 1) return this.pumpLater(this.rate!.msUntil(1));
        batch = this.outbox.takeBatch(allowed)!;
      }
      this.rate?.take(batch.ids.length);
      batch.sent = true;
      this.connection.send(batch.frame);
    }
  }

  private serverError(frame: ErrorFrame): void {
    this.report(new SpyglassError(frame.code, frame.message, frame.seq));
    if (frame.seq === undefined) return;
    if (frame.code === 'bad_items' || frame.code === 'frame_too_large' || frame.code === 'bad_frame') {
      // Refused for its content: it would be refused again.
      this.outbox.reject(frame.seq);
      this.settle();
      this.pump();
    } else if (this.outbox.requeueFrom(frame.seq)) {
      // Refused for now (rate, a failed commit, a numbering mix-up): wait as asked, then again.
      this.resumeAt = Date.now() + (frame.retryAfterMs ?? 1000);
      this.pumpLater(this.resumeAt - Date.now());
    }
  }

  private async command(frame: CommandFrame): Promise<void> {
    try {
      const data = await this.runCommand(frame);
      this.connection.send(JSON.stringify({ type: 'result', commandId: frame.id, ok: true, ...(data !== undefined ? { data } : {}) }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.connection.send(JSON.stringify({ type: 'result', commandId: frame.id, ok: false, error: message.slice(0, 2000) }));
      this.report(new SpyglassError('command_failed', `Command ${frame.name} failed: ${message}`));
    }
    this.emit('command', frame);
  }

  private async runCommand(frame: CommandFrame): Promise<unknown> {
    const args = frame.args ?? {};
    switch (frame.name) {
      case 'ping': {
        // Recorded whatever the toggles say: the pong is how the dashboard sees the ping arrived.
        const itemId = this.record(buildLogItem('Pong', { level: 'info', category: 'spyglass', name: 'ping' }));
        return { pong: true, itemId };
      }
      case 'take_screenshot': {
        if (!this.options.screenshotCapturer) throw new Error('This device cannot take screenshots');
        const image = await this.options.screenshotCapturer();
        return { itemId: this.screenshot(image) };
      }
      case 'open_sheet':
        if (!this.options.onOpenSheet) throw new Error('This app has no Spyglass sheet');
        await this.options.onOpenSheet();
        return undefined;
      case 'feature_toggles': {
        const toggles = FeatureToggles.parse(args.featureToggles ?? args);
        this.setToggles(toggles);
        return { featureToggles: toggles };
      }
      case 'breakpoint':
        if (typeof args.breakpointEnabled !== 'boolean') throw new Error('breakpointEnabled must be a boolean');
        this.breakpointEnabled = args.breakpointEnabled;
        return { breakpointEnabled: this.breakpointEnabled };
      case 'mocks':
        return this.mocks.apply(args);
    }
  }

  private setToggles(toggles: Toggles): void {
    this.toggles = { ...toggles };
    this.emit('featureToggles', this.toggles);
  }

  private settle(): void {
    if (this.waiters.length === 0) return;
    if (this.failure) {
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
    } else if (this.outbox.isEmpty) {
      for (const waiter of this.waiters.splice(0)) waiter.resolve();
    }
  }

  private report(error: SpyglassError): void {
    this.options.onError?.(error);
    this.emit('error', error);
  }

  private emit<K extends keyof SpyglassEvents>(event: K, value: SpyglassEvents[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (value: SpyglassEvents[K]) => void)(value);
      } catch {
        // a throwing listener must not break the SDK
      }
    }
  }
}
