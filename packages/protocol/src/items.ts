import { z } from 'zod';
import { ITEM_LIMITS, ITEM_TEXT_LIMITS as T, ITEM_TYPES } from './item-limits';

export * from './item-limits';

export const ItemType = z.enum(ITEM_TYPES);
export type ItemType = z.infer<typeof ItemType>;

const Text = (max: number) => z.string().max(max);
const HeaderMap = z.record(Text(T.headerName), Text(ITEM_LIMITS.maxHeaderValue))
  .refine((h) => Object.keys(h).length <= ITEM_LIMITS.maxHeaders, `At most ${ITEM_LIMITS.maxHeaders} headers`);
export type HeaderMap = Record<string, string>;

/**
 * A body as captured: text, or base64 for binary content (`bodyEncoding: 'base64'`).
 * `bodyTruncated` says the SDK cut it at the size cap.
 */
const Body = Text(T.encodedBody);

export const RequestMetrics = z.object({
  fetchStartDate: z.string().optional(),
  domainLookupStartDate: z.string().optional(),
  domainLookupEndDate: z.string().optional(),
  connectStartDate: z.string().optional(),
  secureConnectionStartDate: z.string().optional(),
  secureConnectionEndDate: z.string().optional(),
  connectEndDate: z.string().optional(),
  requestStartDate: z.string().optional(),
  requestEndDate: z.string().optional(),
  responseStartDate: z.string().optional(),
  responseEndDate: z.string().optional(),
}).partial();

export const NetworkRequest = z.object({
  method: Text(T.method),
  url: Text(ITEM_LIMITS.maxUrlLength),
  headers: HeaderMap.default({}),
  body: Body.nullable().optional(),
  bodyEncoding: z.enum(['utf8', 'base64']).optional(),
  bodyTruncated: z.boolean().optional(),
  bodySize: z.number().int().nonnegative().optional(),
  query: z.record(z.string(), z.string()).optional(),
  startedAt: z.string().optional(),
  httpVersion: Text(T.httpVersion).optional(),
  requestMetrics: RequestMetrics.optional(),
});
export type NetworkRequest = z.infer<typeof NetworkRequest>;

export const NetworkResponse = z.object({
  statusCode: z.number().int().min(0).max(999),
  statusText: Text(T.statusText).optional(),
  headers: HeaderMap.default({}),
  body: Body.nullable().optional(),
  bodyEncoding: z.enum(['utf8', 'base64']).optional(),
  bodyTruncated: z.boolean().optional(),
  bodySize: z.number().int().nonnegative().optional(),
  receivedAt: z.string().optional(),
  httpVersion: Text(T.httpVersion).optional(),
});
export type NetworkResponse = z.infer<typeof NetworkResponse>;

export const Timings = z.object({
  total: z.number(), blocked: z.number(), dns: z.number(), connect: z.number(), send: z.number(), wait: z.number(),
  receive: z.number(), ssl: z.number(), tcp: z.number(), tls: z.number(), ttfb: z.number(), download: z.number(),
}).partial();
export type Timings = z.infer<typeof Timings>;

export const NetworkDetails = z.object({
  request: NetworkRequest,
  response: NetworkResponse.optional(),
  timings: Timings.optional(),
  /** Transport failure (DNS, refused, aborted): there is no response. */
  error: Text(T.error).optional(),
  /** Set when a mocked route or item mock answered, or the request was mapped to another host. */
  mockedBy: z.object({ kind: z.enum(['item', 'route', 'mapRemote']), id: Text(T.id), mappedUrl: Text(ITEM_LIMITS.maxUrlLength).optional() }).optional(),
});
export type NetworkDetails = z.infer<typeof NetworkDetails>;

export const StackFrame = z.object({
  className: Text(T.name).optional(),
  methodName: Text(T.name).optional(),
  fileName: Text(T.fileName).optional(),
  lineNumber: z.number().int().optional(),
  isNativeMethod: z.boolean().optional(),
});
export type StackFrame = z.infer<typeof StackFrame>;

export const LogDetails = z.object({
  message: Text(ITEM_LIMITS.maxMessageLength),
  level: Text(T.level).optional(),
  file: Text(T.fileName).optional(),
  line: z.number().int().optional(),
  name: Text(T.name).optional(),
  category: Text(T.category).optional(),
  subsystem: Text(T.category).optional(),
  stackTrace: z.array(StackFrame).max(T.stackFrames).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type LogDetails = z.infer<typeof LogDetails>;

export const EventDetails = z.object({
  name: Text(T.name),
  category: Text(T.category).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});
export type EventDetails = z.infer<typeof EventDetails>;

export const ScreenshotDetails = z.object({
  name: Text(T.name),
  /** base64 PNG (or JPEG); leaves the row for the blob store. Absent from compact items. */
  image: z.string().max(T.encodedBody).optional(),
  mimeType: Text(T.mimeType).optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});
export type ScreenshotDetails = z.infer<typeof ScreenshotDetails>;

export const AnalyticsDetails = z.object({
  name: Text(T.name),
  category: Text(T.category).optional(),
  level: Text(T.level).optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type AnalyticsDetails = z.infer<typeof AnalyticsDetails>;

/** Item mock set from the details panel (spec 001 §3 MockData). */
export const ItemMockData = z.object({
  isMocked: z.boolean(),
  metaData: z.record(z.string(), z.unknown()).optional(),
  statusCode: z.number().int().min(100).max(599),
  method: Text(20),
  headers: HeaderMap,
  body: z.string().max(ITEM_LIMITS.maxBodyBytes),
  url: Text(ITEM_LIMITS.maxUrlLength),
  mockedUrl: Text(ITEM_LIMITS.maxUrlLength),
  delayMs: z.number().int().min(0).max(120_000).nullable().optional(),
});
export type ItemMockData = z.infer<typeof ItemMockData>;

const itemBase = {
  id: z.string().min(1).max(100),
  deviceId: z.string().min(1).max(200),
  /** Display number per device, 1 for the first item ever captured. */
  num: z.number().int().positive(),
  level: Text(20).nullable(),
  method: Text(20).nullable(),
  url: Text(ITEM_LIMITS.maxUrlLength).nullable(),
  status: z.number().int().nullable(),
  duration: z.number().nullable(),
  /** Bytes of the item as received (bodies included): what traffic quotas count. */
  size: z.number().int().nonnegative(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  tags: z.array(z.string().max(100)).max(ITEM_LIMITS.maxTags),
  notes: z.string().max(10_000).nullable(),
  isMocked: z.boolean(),
  mock: z.object({ enabled: z.boolean() }).nullable(),
  mockData: ItemMockData.nullable(),
  metaData: z.record(z.string(), z.unknown()).nullable(),
};

/** A captured item as the API and the live channel send it (spec 001 §3). */
export const CapturedItem = z.discriminatedUnion('type', [
  z.object({ ...itemBase, type: z.literal('network'), details: NetworkDetails }),
  z.object({ ...itemBase, type: z.literal('log'), details: LogDetails }),
  z.object({ ...itemBase, type: z.literal('event'), details: EventDetails }),
  z.object({ ...itemBase, type: z.literal('screenshot'), details: ScreenshotDetails }),
  z.object({ ...itemBase, type: z.literal('firebaseAnalytics'), details: AnalyticsDetails }),
]);
export type CapturedItem = z.infer<typeof CapturedItem>;
export type NetworkItem = Extract<CapturedItem, { type: 'network' }>;

/**
 * The list form: the same shape with bodies and screenshot images left out (they are loaded
 * when an item is opened), plus flags saying what can be loaded.
 */
export type CompactItem = CapturedItem & { hasRequestBody?: boolean; hasResponseBody?: boolean };
