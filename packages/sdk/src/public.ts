// What every entry (node, browser, react-native) exports besides createSpyglass.
export type { SpyglassClient, SpyglassEvents, SpyglassOptions, SpyglassStats } from './options';
export type { ConnectionStatus } from './connection';
export { SpyglassError, type SpyglassErrorCode } from './errors';
export { memoryStorage, type KeyValueStorage } from './install-id';
export type { AnalyticsOptions, EventOptions, LogLevel, LogOptions, ScreenshotInput } from './items';
export type { ForwardOverride, InterceptedRequest, InterceptorControls, MockedBy, RequestInterceptor } from './capture/interceptors';
export type { CapturedBody } from './body';
export type { BackoffOptions } from './backoff';
export type { BackpressureState, OutboxOptions, OutboxStats } from './outbox';
export type { WebSocketConstructor, WebSocketLike } from './websocket';
export { SDK_VERSION } from './version';
export type { UserDefaults, UserDefaultsGroup, UserDefaultValue } from './user-defaults';
