import type { FeatureToggles } from './devices';

// Constants of the device protocol, kept free of zod: device SDKs import them (through
// `@spyglass/protocol/device`) without carrying the schemas into an app's bundle.

/**
 * The device protocol (docs/protocol.md). Bump PROTOCOL_VERSION on any change a device must
 * know about; MIN_PROTOCOL_VERSION is the oldest version the server still accepts.
 */
export const PROTOCOL_VERSION = 2;
export const MIN_PROTOCOL_VERSION = 1;

/**
 * The compatibility rule (docs/protocol.md): a server accepts every version from
 * MIN_PROTOCOL_VERSION to PROTOCOL_VERSION. Within that range changes are additive only (new
 * optional fields, new frame types the other side may ignore); anything else bumps
 * MIN_PROTOCOL_VERSION too.
 */
export function isSupportedProtocolVersion(version: unknown): version is number {
  return typeof version === 'number' && Number.isInteger(version) && version >= MIN_PROTOCOL_VERSION && version <= PROTOCOL_VERSION;
}

export const DEVICE_LIMITS = {
  maxFrameBytes: 8 * 1024 * 1024,
  maxItemsPerFrame: 500,
  heartbeatIntervalMs: 15_000,
  /** A device silent for this long is marked offline. */
  heartbeatTimeoutMs: 45_000,
  /** A connection that has not said hello within this time is closed. */
  helloTimeoutMs: 10_000,
} as const;

/** Close codes in the application range (4000–4999), each with a human reason. */
export const DEVICE_CLOSE_CODES = {
  badHello: 4400,
  badApiKey: 4401,
  forbidden: 4403,
  deviceLimit: 4409,
  unsupportedVersion: 4426,
  quotaExceeded: 4429,
  heartbeatTimeout: 4408,
  /** The device was deleted from the dashboard while connected. */
  deviceDeleted: 4410,
  /** Another connection said hello with the same device id (the device reconnected). */
  replaced: 4000,
  /**
   * Policy violation: the device kept sending frames the server had to refuse (bad JSON, bad
   * shapes, frames too large). Not fatal: an SDK reconnects with backoff.
   */
  misbehaving: 1008,
} as const;

export const ERROR_CODES = [
  'bad_frame', 'bad_hello', 'bad_api_key', 'unsupported_protocol_version', 'device_limit', 'frame_too_large',
  'rate_limited', 'quota_exceeded', 'bad_sequence', 'bad_items', 'internal', 'forbidden', 'device_deleted',
] as const;
export type DeviceErrorCode = (typeof ERROR_CODES)[number];

/** The text the dashboard also shows when an account is at its device limit (spec 001 §8). */
export const DEVICE_LIMIT_MESSAGE = 'Maximum number of devices reached: Please contact support to increase your limit';

export const COMMAND_NAMES = ['ping', 'take_screenshot', 'open_sheet', 'feature_toggles', 'breakpoint', 'mocks', 'user_defaults', 'start_screen_capture', 'stop_screen_capture'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** What a device captures until the welcome says otherwise. */
export const DEFAULT_FEATURE_TOGGLES: FeatureToggles = { logs: true, network: true, prints: true, events: true };
