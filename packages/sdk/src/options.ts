import type { CommandFrame, DeviceInfo, FeatureToggles, WelcomeFrame } from '@spyglass/protocol';
import type { BackoffOptions } from './backoff';
import type { FetchFunction } from './capture/fetch';
import type { RequestInterceptor } from './capture/interceptors';
import type { ConnectionStatus } from './connection';
import type { SpyglassError } from './errors';
import type { KeyValueStorage } from './install-id';
import type { ScreenCaptureOptions } from './screen-capture/browser-screen-capture';
import type { AnalyticsOptions, EventOptions, LogOptions, ScreenshotInput } from './items';
import type { BackpressureState, OutboxOptions, OutboxStats } from './outbox';
import type { UserDefaults } from './user-defaults';
import type { WebSocketConstructor } from './websocket';

// The public API of the SDK, the same in every runtime (node, browser, react-native entries).

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
  /**
   * Where the install id is kept. By default: `localStorage` in browsers; in Node a small file
   * in the user's config directory, one per app (see README), so a restarted app stays the same
   * device; memory in React Native (pass `AsyncStorage` for a stable device).
   */
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
  /**
   * Memory bound of what waits for the server (`maxBytes`, default 32 MB of JSON, queued and
   * unacknowledged together; the oldest items are dropped above it), and batch sizes.
   */
  outbox?: Partial<OutboxOptions>;
  /** Batches sent and not yet acknowledged before the SDK waits for acks. Default 64 (fewer if the server takes fewer items in flight). */
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
  /**
   * Browsers: what the dashboard's Capture Screen may show (`getDisplayMedia`, or the app's own
   * canvas or element stream). Without it, or in Node and React Native, the device reports
   * `isScreenShareEnabled: false` and the dashboard says 'Screen Recording not supported!'.
   */
  screenCapture?: ScreenCaptureOptions;
  /** Every error the SDK reports (also available as the `error` event). */
  onError?: (error: SpyglassError) => void;
  /**
   * Browsers: the URL where the app serves `emscripten-module.wasm` of
   * `@jitl/quickjs-wasmfile-release-sync`, which dynamic mocked routes run in. Bundlers that copy
   * it beside the bundle need nothing; Node needs nothing.
   */
  mockSandboxWasmUrl?: string;
  /**
   * Where `userDefaults` keeps its values (one JSON document under `spyglass.userDefaults`).
   * By default: `localStorage` in browsers; in React Native `storage` when given (pass
   * AsyncStorage), else memory; in Node a JSON file (`userDefaultsFile`).
   */
  userDefaultsStorage?: KeyValueStorage;
  /** Node: the JSON file of user defaults. Default: one per app in the user's config directory. */
  userDefaultsFile?: string;
  /** Random source for the reconnect jitter (a seeded one makes runs reproducible). */
  random?: () => number;
}

/** Counters of the client (see {@link SpyglassClient.stats}). */
export interface SpyglassStats extends OutboxStats {
  status: ConnectionStatus;
  /** Items not captured because their feature toggle is off. */
  skipped: number;
  /**
   * The server refused items because the account used its plan's traffic (error `quota_exceeded`):
   * they stay in the outbox and are offered again after the pause the server asked for, until an
   * upgrade or the next billing period; the outbox's bound drops the oldest meanwhile (`dropped`).
   */
  quotaExceeded: boolean;
}

export interface SpyglassEvents {
  status: ConnectionStatus;
  /** The server accepted this device. */
  welcome: WelcomeFrame;
  error: SpyglassError;
  featureToggles: FeatureToggles;
  /** A command from the dashboard, after the SDK handled it. */
  command: CommandFrame;
  /**
   * The outbox is half full (`active: true`: the app captures faster than the server takes, and
   * items will be dropped, oldest first, once it is full), or back under a quarter (`false`).
   */
  backpressure: BackpressureState;
  /** The dashboard turned request breakpoints on or off (the device profile's switch). */
  breakpoint: boolean;
}

/** A connected Spyglass device (see {@link createSpyglass}). */
export interface SpyglassClient {
  readonly status: ConnectionStatus;
  /** The device id the server knows this device by, once welcomed. */
  readonly deviceId: string | undefined;
  /** What the dashboard lets this device capture. */
  readonly featureToggles: Readonly<FeatureToggles>;
  readonly breakpointEnabled: boolean;
  /**
   * The app's key-value preferences by suite, which the dashboard's User Defaults view shows and
   * edits; the app's own writes reach the dashboard live.
   */
  readonly userDefaults: UserDefaults;
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

