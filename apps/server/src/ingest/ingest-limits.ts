import { DEVICE_LIMIT, DEVICE_LIMITS } from '@spyglass/protocol';

/** What one device and one account may send; refused frames are answered with an error frame. */
export interface IngestLimits {
  maxFrameBytes: number;
  maxItemsPerFrame: number;
  /** Frames at least this large are parsed on a worker thread, off the event loop. */
  offThreadParseBytes: number;
  /** Items per second, sustained, and the burst a reconnecting device may resend at once. */
  deviceItemsPerSecond: number;
  deviceItemsBurst: number;
  accountItemsPerSecond: number;
  accountItemsBurst: number;
  deviceBytesPerSecond: number;
  deviceBytesBurst: number;
  accountBytesPerSecond: number;
  accountBytesBurst: number;
  /** Items of one connection received but not yet committed; beyond it frames are refused. */
  maxInFlightItems: number;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  helloTimeoutMs: number;
  deviceLimit: number;
  /**
   * What the server may have written to a device that it has not read yet: beyond it the server
   * stops reading from the device until it catches up (so a device that never reads its acks and
   * errors cannot make the server hold them all).
   */
  maxUnreadBytes: number;
  /** Frames a device may get refused (bad JSON, shape, size, sequence): per second, and in a burst; beyond, it is closed. */
  refusalsPerSecond: number;
  refusalsBurst: number;
  /** A device's device_info frames are written and announced at most once per this interval; the last one wins. */
  deviceInfoIntervalMs: number;
  /** What a device's mocked-route handlers log is written and announced at most once per this interval, per route. */
  routeConsoleIntervalMs: number;
}

const MB = 1024 * 1024;

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxFrameBytes: DEVICE_LIMITS.maxFrameBytes,
  maxItemsPerFrame: DEVICE_LIMITS.maxItemsPerFrame,
  offThreadParseBytes: 256 * 1024,
  deviceItemsPerSecond: 5_000,
  deviceItemsBurst: 50_000,
  accountItemsPerSecond: 50_000,
  accountItemsBurst: 200_000,
  deviceBytesPerSecond: 20 * MB,
  deviceBytesBurst: 100 * MB,
  accountBytesPerSecond: 100 * MB,
  accountBytesBurst: 400 * MB,
  maxInFlightItems: 20_000,
  heartbeatIntervalMs: DEVICE_LIMITS.heartbeatIntervalMs,
  heartbeatTimeoutMs: DEVICE_LIMITS.heartbeatTimeoutMs,
  helloTimeoutMs: DEVICE_LIMITS.helloTimeoutMs,
  deviceLimit: DEVICE_LIMIT,
  maxUnreadBytes: 1 * MB,
  refusalsPerSecond: 10,
  refusalsBurst: 100,
  deviceInfoIntervalMs: 1000,
  routeConsoleIntervalMs: 250,
};

const ENV_NAMES: Partial<Record<keyof IngestLimits, string>> = {
  deviceItemsPerSecond: 'INGEST_DEVICE_ITEMS_PER_S',
  accountItemsPerSecond: 'INGEST_ACCOUNT_ITEMS_PER_S',
  deviceBytesPerSecond: 'INGEST_DEVICE_BYTES_PER_S',
  accountBytesPerSecond: 'INGEST_ACCOUNT_BYTES_PER_S',
};

/** Defaults, with the sustained rates overridable by environment (bursts scale with them). */
export function loadIngestLimits(env: Record<string, string | undefined>): IngestLimits {
  const limits = { ...DEFAULT_INGEST_LIMITS };
  for (const [key, name] of Object.entries(ENV_NAMES) as Array<[keyof IngestLimits, string]>) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
    const burstKey = key.replace('PerSecond', 'Burst') as keyof IngestLimits;
    limits[burstKey] = Math.round((limits[burstKey] / limits[key]) * n);
    limits[key] = n;
  }
  return limits;
}
