import { z } from 'zod';
import {
  DEVICE_CLOSE_CODES, DEVICE_LIMIT_MESSAGE, HelloFrame, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, isSupportedProtocolVersion,
  type Device, type DeviceErrorCode, type WelcomeFrame,
} from '@spyglass/protocol';
import { isTrue, type Db } from '../db/database';
import type { IngestLimits } from '../ingest/ingest-limits';
import { registerDeviceOnHello, type DeviceRow } from '../repositories/devices.repository';
import { findUserByApiKey } from '../repositories/users.repository';
import { ACCOUNT_LOCKED_MESSAGE } from '../services/auth.service';

const MAX_ERROR_MESSAGE = 2000;

/** Why a device was refused, as the error frame and close code it gets. */
export interface Refusal {
  code: DeviceErrorCode;
  message: string;
  closeCode: number;
  /** The account that refused a device at its device limit: its dashboards are told. */
  userId?: string;
}

/** A zod error as the message of an error frame, bounded. */
export function describeIssues(error: z.ZodError): string {
  const text = z.prettifyError(error);
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 3)}...` : text;
}

/**
 * The first frame, checked: a hello of a protocol version this server speaks. The version is
 * checked before the shape, because a newer protocol may have a hello this version cannot parse.
 */
export function readHello(json: unknown): { hello: HelloFrame } | { refused: Refusal } {
  const bad = (message: string): { refused: Refusal } => ({ refused: { code: 'bad_hello', message, closeCode: DEVICE_CLOSE_CODES.badHello } });
  if ((json as { type?: unknown } | null)?.type !== 'hello') return bad('The first frame must be a hello frame');
  const version = (json as { protocolVersion?: unknown }).protocolVersion;
  if (typeof version === 'number' && !isSupportedProtocolVersion(version)) {
    return {
      refused: {
        code: 'unsupported_protocol_version',
        message: `Protocol version ${String(version)} is not supported: this server accepts versions ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}`,
        closeCode: DEVICE_CLOSE_CODES.unsupportedVersion,
      },
    };
  }
  const parsed = HelloFrame.safeParse(json);
  return parsed.success ? { hello: parsed.data } : bad(describeIssues(parsed.error));
}

export type Registration = { userId: string; row: DeviceRow; created: boolean } | { refused: Refusal };

/**
 * The account behind the hello's API key, and the device registered in it (created within the
 * account's device limit, or refreshed and marked online).
 */
export async function registerDevice(db: Db, hello: HelloFrame, now: number, deviceLimit: number): Promise<Registration> {
  const user = await findUserByApiKey(db, hello.apiKey);
  if (!user) return { refused: { code: 'bad_api_key', message: 'Invalid API key', closeCode: DEVICE_CLOSE_CODES.badApiKey } };
  if (isTrue(user.is_locked)) return { refused: { code: 'forbidden', message: ACCOUNT_LOCKED_MESSAGE, closeCode: DEVICE_CLOSE_CODES.forbidden } };
  const outcome = await registerDeviceOnHello(db, user.id, hello.deviceId, hello.device, now, deviceLimit);
  if (outcome.ok) return { userId: user.id, row: outcome.row, created: outcome.created };
  if (outcome.reason === 'device_limit') {
    return { refused: { code: 'device_limit', message: DEVICE_LIMIT_MESSAGE, closeCode: DEVICE_CLOSE_CODES.deviceLimit, userId: user.id } };
  }
  return { refused: { code: 'forbidden', message: 'This device id belongs to another account', closeCode: DEVICE_CLOSE_CODES.forbidden } };
}

/** What the server tells a registered device: its settings, the server's clock and the limits it must keep. */
export function welcomeFrame(hello: HelloFrame, device: Device, limits: IngestLimits, now: number): WelcomeFrame {
  return {
    type: 'welcome',
    protocolVersion: hello.protocolVersion,
    deviceId: device.id,
    featureToggles: device.featureToggles,
    breakpointEnabled: device.breakpointEnabled,
    serverTime: new Date(now).toISOString(),
    heartbeatIntervalMs: limits.heartbeatIntervalMs,
    heartbeatTimeoutMs: limits.heartbeatTimeoutMs,
    limits: {
      maxFrameBytes: limits.maxFrameBytes, maxItemsPerFrame: limits.maxItemsPerFrame, itemsPerSecond: limits.deviceItemsPerSecond,
      itemsBurst: limits.deviceItemsBurst, maxInFlightItems: limits.maxInFlightItems,
    },
  };
}
