import { z } from 'zod';
import { Device } from './devices';
import { ConsoleEntry } from './mocks/mocked-routes';
import { CompactItemSchema } from './requests';
import {
  ViewerAnswerMessage, ViewerCandidateMessage, ViewerCandidateRelayed, ViewerOfferMessage, ViewerScreenCaptureError,
} from './screen-capture';
import { UserDefaultsGroups } from './user-defaults';

/** Messages of the viewer live channel `/ws?token=&type=viewer` (spec 000 §4.6, spec 001 §7). */
export const ViewerInbound = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  /**
   * Which device's items this viewer wants (null: none): one `new_request` message per item, or
   * with `batches: true` one `new_requests` message per committed batch.
   */
  z.object({ type: z.literal('subscribe'), deviceId: z.string().max(200).nullable(), batches: z.boolean().optional() }),
  /** Screen capture signalling to the broadcaster `target` (a device of this account). */
  ViewerAnswerMessage,
  ViewerCandidateMessage,
]);
export type ViewerInbound = z.infer<typeof ViewerInbound>;

export const DeviceStatusMessage = z.object({
  type: z.literal('device_status'),
  deviceId: z.string(),
  online: z.boolean(),
  name: z.string(),
  sdkVersion: z.string().nullable(),
  lastSeen: z.string(),
  group: z.string().nullable(),
  device: Device.optional(),
});

export const ViewerOutbound = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), connectionId: z.string() }),
  z.object({ type: z.literal('pong') }),
  DeviceStatusMessage,
  z.object({ type: z.literal('device_update'), device: Device }),
  z.object({ type: z.literal('device_deleted'), deviceId: z.string() }),
  /** A new or updated item (compact form) of the subscribed device. */
  z.object({ type: z.literal('new_request'), deviceId: z.string(), request: CompactItemSchema }),
  /**
   * The new or updated items (compact form) of one committed batch of the subscribed device, in
   * commit order, for a viewer that subscribed with `batches: true`: one message, serialized once
   * for all viewers, instead of one `new_request` per item.
   */
  z.object({ type: z.literal('new_requests'), deviceId: z.string(), requests: z.array(CompactItemSchema) }),
  z.object({ type: z.literal('requests_deleted'), deviceId: z.string(), ids: z.array(z.string()) }),
  z.object({ type: z.literal('requests_cleared'), deviceId: z.string() }),
  /** The console log of a mocked route changed (its handler logged on the device): the whole log, newest last. */
  z.object({ type: z.literal('route_console'), deviceId: z.string(), routeId: z.string(), consoleLog: z.array(ConsoleEntry) }),
  /** A device's user defaults changed (the app wrote them, or a dashboard did): all its groups. */
  z.object({ type: z.literal('user_defaults_changed'), deviceId: z.string(), groups: UserDefaultsGroups }),
  /**
   * The account's traffic quota was reached (`exceeded`), or lifted by an upgrade or a new billing
   * period: the dashboard reloads its subscription, so the quota banner comes and goes live.
   */
  z.object({ type: z.literal('quota_changed'), exceeded: z.boolean() }),
  /** A device was refused because the account has as many devices as it may (spec 001 §8). */
  z.object({ type: z.literal('device_limit_reached'), deviceId: z.string(), message: z.string() }),
  /** The server dropped this viewer's backlog (it read too slowly): reload the list from the API. */
  z.object({ type: z.literal('resync'), deviceId: z.string().nullable(), reason: z.string() }),
  /** Screen capture signalling from the broadcaster `deviceId` to this connection, and why a capture stopped. */
  ViewerOfferMessage,
  ViewerCandidateRelayed,
  ViewerScreenCaptureError,
]);
export type ViewerOutbound = z.infer<typeof ViewerOutbound>;

/**
 * Close codes of the viewer live channel besides the standard ones: the token is unknown or was
 * revoked (checked when the viewer connects and at each heartbeat), or the account is locked.
 * The browser reloads the account on either, which signs it out or shows the locked screen.
 */
export const VIEWER_CLOSE_CODES = { unauthorized: 4401, locked: 4403 } as const;
