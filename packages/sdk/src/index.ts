/**
 * The Spyglass device SDK for JavaScript runtimes (Node 20+, browsers, React Native).
 * Start with {@link createSpyglass}.
 */
export { createSpyglass, Spyglass, type SpyglassClient, type SpyglassEvents, type SpyglassOptions, type SpyglassStats } from './client';
export type { ConnectionStatus } from './connection';
export { SpyglassError, type SpyglassErrorCode } from './errors';
export type { KeyValueStorage } from './install-id';
export { memoryStorage } from './install-id';
export type { AnalyticsOptions, EventOptions, LogLevel, LogOptions, ScreenshotInput } from './items';
export type { ForwardOverride, InterceptedRequest, InterceptorControls, MockedBy, RequestInterceptor } from './capture/interceptors';
export type { CapturedBody } from './body';
export type { BackoffOptions } from './backoff';
export type { OutboxOptions, OutboxStats } from './outbox';
export type { WebSocketConstructor, WebSocketLike } from './websocket';
export { SDK_VERSION } from './version';
