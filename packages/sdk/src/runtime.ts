import type { DeviceInfo, DeviceScreenCaptureFrame } from '@spyglass/protocol';
import type * as Sandbox from '@spyglass/protocol/sandbox';
import type { CaptureHooks } from './capture/hooks';
import type { MockedBy } from './capture/interceptors';
import type { MockEngine } from './mocks/mock-engine';
import type { ScreenCaptureControl } from './screen-capture/broadcaster';
import type { SpyglassOptions } from './options';
import type { UserDefaultsStore } from './user-defaults';
import type { WebSocketConstructor } from './websocket';

export type SandboxModule = typeof Sandbox;

/** What the Node runtime adds to capture: the clients that bypass fetch. */
export interface NodeClientsContext {
  hooks: CaptureHooks;
  mocks: MockEngine;
  /** Whether mocks may apply to a URL (network toggle on, URL not ignored). */
  mayMock(url: string): boolean;
  mockedRequests: WeakMap<object, MockedBy>;
  /**
   * Gives the client a way to mark the fetch wrapper's own requests, which Node's fetch reports
   * again on undici's channels (`inside` tells whether the current async context is marked).
   */
  setFetchScope(scope: <T>(request: () => T) => T, inside: () => boolean): void;
}

/**
 * The differences between the runtimes the SDK runs in. Each entry (`node`, `browser`,
 * `react-native`) passes its own, so a browser or React Native bundle never reaches Node's
 * modules, and React Native never reaches the WebAssembly sandbox.
 */
export interface Runtime {
  /** Device fields the runtime tells by itself. */
  detectDevice(): Promise<DeviceInfo>;
  /**
   * The install id when the app passes neither `installId` nor `storage`; `release` (if any)
   * gives it up when the client stops, so that the next client of this app may take it.
   */
  defaultInstallId(device: Partial<DeviceInfo>): Promise<{ id: string; release?: () => void }>;
  WebSocket(): Promise<WebSocketConstructor>;
  /** Node: capture and mocks of node:http/https and undici. Answers the undos. */
  installClients?(context: NodeClientsContext): Promise<(() => void)[]>;
  /** Where `spyglass.userDefaults` keeps its values (options.userDefaultsStorage wins everywhere). */
  userDefaultsStore(device: Partial<DeviceInfo>, options: SpyglassOptions): UserDefaultsStore;
  /** Browsers: the screen capture broadcaster, when the app allowed it (options.screenCapture). */
  screenCapture?(options: SpyglassOptions, send: (frame: DeviceScreenCaptureFrame) => void): ScreenCaptureControl | undefined;
  /** The handler sandbox of dynamic mocked routes; absent where it cannot run (React Native). */
  loadSandbox?(): Promise<SandboxModule>;
}
