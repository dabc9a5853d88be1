import { DEFAULT_FEATURE_TOGGLES, ITEM_LIMITS, PROTOCOL_VERSION } from '@spyglass/protocol/device';
import type { CommandFrame, DeviceInfo, DeviceItem, ErrorFrame, FeatureToggles, HelloFrame, WelcomeFrame } from '@spyglass/protocol';
import { DEFAULT_BACKOFF } from './backoff';
import { bytesToBase64 } from './body';
import type { CaptureHooks } from './capture/hooks';
import { installCapture } from './capture/install';
import type { MockedBy, RequestInterceptor } from './capture/interceptors';
import type { FetchFunction } from './capture/fetch';
import { runCommand } from './commands';
import { Connection, type ConnectionStatus } from './connection';
import type { ScreenCaptureControl } from './screen-capture/broadcaster';
import { Delivery } from './delivery';
import { SpyglassError } from './errors';
import { loadInstallId } from './install-id';
import { checkItem } from './item-check';
import {
  buildAnalyticsItem, buildEventItem, buildLogItem, buildScreenshotItem,
  type AnalyticsOptions, type EventOptions, type LogOptions, type ScreenshotInput,
} from './items';
import { mockInterceptor } from './mocks/fetch-mocks';
import { handlerErrorEntry, handlerLogFrame } from './mocks/handler-console';
import { MockEngine } from './mocks/mock-engine';
import type { SpyglassClient, SpyglassEvents, SpyglassOptions, SpyglassStats } from './options';
import { DEFAULT_OUTBOX } from './outbox';
import type { Runtime } from './runtime';
import { UserDefaultsBook } from './user-defaults';
import { deviceSocketUrl } from './websocket';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A client on a runtime: what each entry's `createSpyglass` makes. */
export function createClient(options: SpyglassOptions, runtime: Runtime): SpyglassClient {
  return new Client(options, runtime);
}

class Client implements SpyglassClient {
  private readonly connection: Connection;
  private readonly delivery: Delivery;
  private readonly listeners = new Map<keyof SpyglassEvents, Set<(value: never) => void>>();
  private readonly interceptors: RequestInterceptor[] = [];
  /** The mocks the dashboard set for this device (docs/mocks.md). */
  private readonly mocks: MockEngine;
  /** The screen capture broadcaster, where the runtime and the app allow one. */
  private readonly screenCapture: ScreenCaptureControl | undefined;
  /** node:http requests and XMLHttpRequests a mock answered or redirected, for their items. */
  private readonly mockedRequests = new WeakMap<object, MockedBy>();
  private readonly restore: (() => void)[] = [];
  private readonly device: Promise<DeviceInfo>;
  private readonly installId: Promise<string>;
  private toggles: FeatureToggles = { ...DEFAULT_FEATURE_TOGGLES };
  private skipped = 0;
  private stopped = false;
  private scope: <T>(request: () => T) => T = (request) => request();
  private insideScope: () => boolean = () => false;
  private fetchDepth = 0;
  readonly fetch: FetchFunction;
  readonly userDefaults: UserDefaultsBook;
  status: ConnectionStatus = 'connecting';
  deviceId: string | undefined;
  breakpointEnabled = false;

  constructor(private readonly options: SpyglassOptions, runtime: Runtime) {
    const given = options.device ?? {};
    this.device = runtime.detectDevice().then((detected) => ({ ...detected, isScreenShareEnabled: this.screenCapture !== undefined, ...given }));
    const claimed: Promise<{ id: string; release?: () => void }> = options.installId ? Promise.resolve({ id: options.installId })
      : options.storage ? loadInstallId(options.storage).then((id) => ({ id })) : runtime.defaultInstallId(given);
    // The app's own writes reach the dashboard live when connected; it reads the store afresh on opening the view.
    this.userDefaults = new UserDefaultsBook(this.device.then((device) => runtime.userDefaultsStore(device, options)),
      (groups) => void this.connection.send(JSON.stringify({ type: 'user_defaults_changed', groups })));
    this.installId = claimed.then(({ id, release }) => {
      if (release) this.restore.push(release);
      return id;
    });

    this.mocks = new MockEngine({
      // To the route's console, not the requests: sent if connected, like the run it belongs to.
      onHandlerLog: (routeId, entries) => void this.connection.send(handlerLogFrame(routeId, entries)),
      onHandlerError: (routeId, error) => void this.connection.send(handlerLogFrame(routeId, [handlerErrorEntry(error, new Date())])),
    }, runtime.loadSandbox, options.mockSandboxWasmUrl);
    // The outermost link: mocks see the request as the app made it.
    this.interceptors.push(mockInterceptor(this.mocks));
    const hooks = this.captureHooks();
    this.fetch = installCapture({
      flags: { fetch: true, xhr: true, http: true, console: false, ...options.capture },
      runtime,
      hooks,
      mocks: this.mocks,
      mayMock: (url) => this.toggles.network && !this.isIgnored(url),
      mockedRequests: this.mockedRequests,
      recordConsole: (message, logOptions) => {
        if (this.toggles.logs) this.record(buildLogItem(message, logOptions));
      },
      stopped: () => this.stopped,
      setFetchScope: (scope, inside) => {
        this.scope = scope;
        this.insideScope = inside;
      },
    }, this.restore);

    this.screenCapture = runtime.screenCapture?.(options, (frame) => void this.connection.send(JSON.stringify(frame)));
    this.connection = new Connection(
      {
        url: deviceSocketUrl(options.serverUrl),
        hello: () => this.hello(),
        backoff: { ...DEFAULT_BACKOFF, ...options.reconnect },
        random: options.random ?? Math.random,
        WebSocket: options.WebSocket ? async () => options.WebSocket! : runtime.WebSocket,
        welcomeTimeoutMs: 15_000,
      },
      {
        welcome: (frame) => this.welcomed(frame),
        ack: (seq) => this.delivery.acked(seq),
        error: (frame) => this.serverError(frame),
        command: (frame) => void this.command(frame),
        signal: (frame) => this.screenCapture?.receive(frame),
        unknownCommand: (id, name) => {
          this.connection.send(JSON.stringify({ type: 'result', commandId: id, ok: false, error: `Unknown command: ${name}` }));
        },
        status: (status) => {
          this.status = status;
          this.emit('status', status);
        },
        fatal: (error) => {
          // Nothing captured from now on could be delivered: give the app its globals back.
          this.stopped = true;
          for (const undo of this.restore.splice(0)) undo();
          this.report(error);
          this.delivery.end(error);
        },
      },
    );
    this.delivery = new Delivery(this.connection, {
      outbox: { ...DEFAULT_OUTBOX, ...options.outbox },
      maxInFlight: options.maxInFlightBatches ?? 64,
      flushIntervalMs: options.flushIntervalMs ?? 25,
      onBackpressure: (state) => this.emit('backpressure', state),
    });
    this.connection.start();
  }

  get featureToggles(): Readonly<FeatureToggles> {
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
    // Checked by the server, which answers a field that breaks a rule with an error naming it.
    void this.device.then((device) => {
      Object.assign(device, fields);
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
    return this.delivery.flush();
  }

  stats(): SpyglassStats {
    return { ...this.delivery.stats(), status: this.status, skipped: this.skipped };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const undo of this.restore.splice(0)) undo();
    this.screenCapture?.stopAll();
    this.connection.stop();
    this.delivery.end(new SpyglassError('connection', 'Spyglass was stopped'));
  }

  private isIgnored(url: string): boolean {
    // Only Spyglass's own API and socket: a page the Spyglass server itself serves (the companion,
    // the emulator) still has its other requests captured.
    const server = this.options.serverUrl.replace(/\/+$/, '');
    const ignore = [`${server}/v1/`, `${server}/ws`, ...(this.options.ignoreUrls ?? [])];
    return ignore.some((rule) => (typeof rule === 'string' ? url.startsWith(rule) : rule.test(url)));
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

  /** Checks what the server would refuse a whole batch for, so one bad item never costs the others. */
  private record(item: DeviceItem): string | undefined {
    const problem = checkItem(item) ?? serializable(item);
    if (typeof problem === 'string') {
      this.report(new SpyglassError('invalid_item', `Item not sent: ${problem}`));
      return undefined;
    }
    this.delivery.add(item.id, problem.json);
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
    this.breakpointEnabled = frame.breakpointEnabled;
    this.setToggles(frame.featureToggles);
    // Each connection starts without mocks; the server sends the device's set right after.
    this.mocks.reset();
    this.emit('welcome', frame);
    this.delivery.welcomed(frame.limits);
  }

  private serverError(frame: ErrorFrame): void {
    this.report(new SpyglassError(frame.code, frame.message, frame.seq));
    if (frame.seq !== undefined) this.delivery.refused({ ...frame, seq: frame.seq });
  }

  private async command(frame: CommandFrame): Promise<void> {
    try {
      const data = await runCommand(frame, {
        screenshotCapturer: this.options.screenshotCapturer,
        onOpenSheet: this.options.onOpenSheet,
        screenCapture: this.screenCapture,
        mocks: this.mocks,
        recordPong: () => this.record(buildLogItem('Pong', { level: 'info', category: 'spyglass', name: 'ping' })),
        screenshot: (image) => this.screenshot(image),
        setToggles: (toggles) => this.setToggles(toggles),
        setBreakpoint: (enabled) => {
          this.breakpointEnabled = enabled;
          this.emit('breakpoint', enabled);
        },
        userDefaults: this.userDefaults,
      });
      this.connection.send(JSON.stringify({ type: 'result', commandId: frame.id, ok: true, ...(data !== undefined ? { data } : {}) }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.connection.send(JSON.stringify({ type: 'result', commandId: frame.id, ok: false, error: message.slice(0, 2000) }));
      this.report(new SpyglassError('command_failed', `Command ${frame.name} failed: ${message}`));
    }
    this.emit('command', frame);
  }

  private setToggles(toggles: FeatureToggles): void {
    this.toggles = { ...toggles };
    this.emit('featureToggles', this.toggles);
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

/** The item's JSON, or why it has none (a BigInt or a cycle in the app's metadata). */
function serializable(item: DeviceItem): { json: string } | string {
  try {
    return { json: JSON.stringify(item) };
  } catch (error) {
    return `it cannot be written as JSON (${String(error)})`;
  }
}
