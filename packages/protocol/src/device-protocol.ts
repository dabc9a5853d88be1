import { z } from 'zod';
import { DeviceInfo, FeatureToggles } from './devices';
import { AnalyticsDetails, EventDetails, LogDetails, NetworkDetails, ScreenshotDetails } from './items';
import { ITEM_LIMITS, ITEM_TEXT_LIMITS } from './item-limits';
import { COMMAND_NAMES, DEVICE_LIMITS, ERROR_CODES } from './device-constants';
import { DeviceCandidateFrame, DeviceOfferFrame, DeviceScreenCaptureErrorFrame, ServerAnswerFrame, ServerCandidateFrame } from './screen-capture';
import { UserDefaultsChangedFrame } from './user-defaults';
import { ConsoleEntry } from './mocks/mocked-routes';
import { MOCK_LIMITS } from './mocks/mock-limits';

export * from './device-constants';

const deviceItemBase = {
  /** Chosen by the SDK (a UUID); sending the same id again updates the item. */
  id: z.string().min(1).max(ITEM_TEXT_LIMITS.id),
  createdAt: z.string().max(ITEM_TEXT_LIMITS.instant),
  sentAt: z.string().max(ITEM_TEXT_LIMITS.instant).optional(),
  level: z.string().max(ITEM_TEXT_LIMITS.level).optional(),
  tags: z.array(z.string().max(ITEM_TEXT_LIMITS.tag)).max(ITEM_LIMITS.maxTags).optional(),
  isMocked: z.boolean().optional(),
  metaData: z.record(z.string(), z.unknown()).optional(),
};

/** An item as a device sends it. The server derives num, method, url, status, duration and size. */
export const DeviceItem = z.discriminatedUnion('type', [
  z.object({ ...deviceItemBase, type: z.literal('network'), details: NetworkDetails }),
  z.object({ ...deviceItemBase, type: z.literal('log'), details: LogDetails }),
  z.object({ ...deviceItemBase, type: z.literal('event'), details: EventDetails }),
  z.object({ ...deviceItemBase, type: z.literal('screenshot'), details: ScreenshotDetails }),
  z.object({ ...deviceItemBase, type: z.literal('firebaseAnalytics'), details: AnalyticsDetails }),
]);
export type DeviceItem = z.infer<typeof DeviceItem>;

// ---- device → server ----
export const HelloFrame = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  apiKey: z.string().min(1).max(200),
  /** Stable per install, chosen by the SDK. */
  deviceId: z.string().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/, 'deviceId may hold letters, digits and . _ : -'),
  device: DeviceInfo,
});
export const ItemsFrame = z.object({
  type: z.literal('items'),
  /** Increases by one per frame for the life of the SDK instance; acks refer to it. */
  seq: z.number().int().nonnegative(),
  items: z.array(DeviceItem).min(1).max(DEVICE_LIMITS.maxItemsPerFrame),
});
export const ResultFrame = z.object({
  type: z.literal('result'),
  commandId: z.string().max(100),
  ok: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().max(2000).optional(),
});
export const DeviceInfoFrame = z.object({ type: z.literal('device_info'), device: DeviceInfo });
export const PingFrame = z.object({ type: z.literal('ping'), t: z.number().optional() });
export const PongFrame = z.object({ type: z.literal('pong'), t: z.number().optional() });

/**
 * What a dynamic mocked route's handler logged while it ran on the device (spec 002: the route's
 * console). Not an item: it goes to the route's console log, which keeps the last entries.
 */
export const MockLogFrame = z.object({
  type: z.literal('mock_log'),
  routeId: z.string().min(1).max(200),
  entries: z.array(ConsoleEntry).min(1).max(MOCK_LIMITS.maxConsoleEntries),
});

export const DeviceFrame = z.discriminatedUnion('type', [HelloFrame, ItemsFrame, ResultFrame, DeviceInfoFrame, UserDefaultsChangedFrame, MockLogFrame, PingFrame, PongFrame,
  // Screen capture signalling (./screen-capture.ts).
  DeviceOfferFrame, DeviceCandidateFrame, DeviceScreenCaptureErrorFrame,
]);
export type DeviceFrame = z.infer<typeof DeviceFrame>;
export type HelloFrame = z.infer<typeof HelloFrame>;
export type ItemsFrame = z.infer<typeof ItemsFrame>;
export type MockLogFrame = z.infer<typeof MockLogFrame>;

// ---- server → device ----
export const WelcomeFrame = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  deviceId: z.string(),
  featureToggles: FeatureToggles,
  breakpointEnabled: z.boolean(),
  serverTime: z.string(),
  heartbeatIntervalMs: z.number().int(),
  /** Silence longer than this closes the connection (4408) and marks the device offline. */
  heartbeatTimeoutMs: z.number().int(),
  /** What this server accepts; an SDK sizes its frames and its send rate by them. */
  limits: z.object({
    maxFrameBytes: z.number().int(),
    maxItemsPerFrame: z.number().int(),
    itemsPerSecond: z.number(),
    /** Items a device may send at once above `itemsPerSecond` (a burst, a reconnect's backlog). */
    itemsBurst: z.number().optional(),
    /** Items of one connection sent and not yet acknowledged that the server takes before refusing more. */
    maxInFlightItems: z.number().int().optional(),
  }),
});
export const AckFrame = z.object({ type: z.literal('ack'), seq: z.number().int() });
export const ErrorFrame = z.object({
  type: z.literal('error'),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** The items frame this error refers to: it was not stored and will not be acknowledged. */
  seq: z.number().int().optional(),
  /** For `rate_limited`: when sending again may succeed. */
  retryAfterMs: z.number().int().optional(),
});
export const CommandFrame = z.object({
  type: z.literal('command'),
  id: z.string(),
  name: z.enum(COMMAND_NAMES),
  args: z.record(z.string(), z.unknown()).optional(),
});
export const ServerFrame = z.discriminatedUnion('type', [WelcomeFrame, AckFrame, ErrorFrame, CommandFrame, PingFrame, PongFrame,
  ServerAnswerFrame, ServerCandidateFrame,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
export type WelcomeFrame = z.infer<typeof WelcomeFrame>;
export type CommandFrame = z.infer<typeof CommandFrame>;
export type ErrorFrame = z.infer<typeof ErrorFrame>;
export type AckFrame = z.infer<typeof AckFrame>;
export type ResultFrame = z.infer<typeof ResultFrame>;
