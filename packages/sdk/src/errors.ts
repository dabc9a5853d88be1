import type { ErrorFrame } from '@spyglass/protocol';
import { DEVICE_CLOSE_CODES } from '@spyglass/protocol/device';

export type SpyglassErrorCode = ErrorFrame['code'] | 'replaced' | 'invalid_item' | 'command_failed' | 'connection';

/** Codes after which reconnecting cannot help: the app (or its developer) has to act. */
const FATAL: ReadonlySet<SpyglassErrorCode> = new Set([
  'bad_api_key', 'unsupported_protocol_version', 'device_limit', 'bad_hello', 'forbidden', 'device_deleted', 'replaced',
]);

const FATAL_CLOSE: Record<number, SpyglassErrorCode> = {
  [DEVICE_CLOSE_CODES.badApiKey]: 'bad_api_key',
  [DEVICE_CLOSE_CODES.unsupportedVersion]: 'unsupported_protocol_version',
  [DEVICE_CLOSE_CODES.deviceLimit]: 'device_limit',
  [DEVICE_CLOSE_CODES.badHello]: 'bad_hello',
  [DEVICE_CLOSE_CODES.forbidden]: 'forbidden',
  [DEVICE_CLOSE_CODES.deviceDeleted]: 'device_deleted',
  [DEVICE_CLOSE_CODES.replaced]: 'replaced',
};

/**
 * An error the SDK reports through `onError` / the `error` event. `fatal` errors stop the client
 * (a wrong API key, an unsupported protocol version, the account's device limit); the others are
 * reported while it keeps going. A deleted device stays away until the app starts the SDK again,
 * and so does a device whose id another running instance took over (`replaced`).
 */
export class SpyglassError extends Error {
  override readonly name = 'SpyglassError';
  readonly fatal: boolean;

  constructor(readonly code: SpyglassErrorCode, message: string, readonly seq?: number) {
    super(message);
    this.fatal = FATAL.has(code);
  }

  static fromCloseCode(code: number, reason: string): SpyglassError | undefined {
    const mapped = FATAL_CLOSE[code];
    return mapped ? new SpyglassError(mapped, reason || `Connection closed (${code})`) : undefined;
  }
}
