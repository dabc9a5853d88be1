import { z } from 'zod';
import { IsoDate } from './common';
import { CapturedItem } from './items';

/** The most items one page of GET /v1/requests may carry. */
export const REQUESTS_PAGE_MAX = 5000;
export const REQUESTS_PAGE_DEFAULT = 1000;
/** The most ids one DELETE /v1/requests may name. */
export const DELETE_REQUESTS_MAX = 10_000;
/** The most ids one POST /v1/requests/lookup may name: a batch of the export's full items. */
export const LOOKUP_REQUESTS_MAX = 200;

/**
 * GET /v1/requests (spec 001 §7: deviceId, optional ISO startDate/endDate). Pages go newest
 * first; `before` is the `nextBefore` of the previous page (a display number).
 */
export const RequestsQuery = z.object({
  deviceId: z.string().min(1).max(200),
  startDate: IsoDate.optional(),
  endDate: IsoDate.optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(REQUESTS_PAGE_MAX).default(REQUESTS_PAGE_DEFAULT),
});
export type RequestsQuery = z.infer<typeof RequestsQuery>;

/** A list item: bodies and screenshot images are left out; the flags say what GET /v1/requests/{id} adds. */
export const CompactItemSchema = z.intersection(CapturedItem, z.object({
  hasRequestBody: z.boolean().optional(),
  hasResponseBody: z.boolean().optional(),
}));

export const RequestsPage = z.object({
  items: z.array(CompactItemSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
  /**
   * First page only (no `before`): how many of the device's stored items match the query, counting
   * those numbered up to the page's newest, so that an item arriving live after the page is
   * counted once ('Total: M' before every page is loaded).
   */
  total: z.number().int().nonnegative().optional(),
});
export type RequestsPage = z.infer<typeof RequestsPage>;

export const DeleteRequestsBody = z.object({
  ids: z.array(z.string().min(1).max(100)).min(1).max(DELETE_REQUESTS_MAX),
});
export type DeleteRequestsBody = z.infer<typeof DeleteRequestsBody>;

/**
 * POST /v1/requests/lookup: the full items (bodies, screenshot images) of one device with these
 * ids, for an export, which needs a batch at a time rather than one GET /v1/requests/{id} each.
 */
export const LookupRequestsBody = z.object({
  deviceId: z.string().min(1).max(200),
  ids: z.array(z.string().min(1).max(100)).min(1).max(LOOKUP_REQUESTS_MAX),
});
export type LookupRequestsBody = z.infer<typeof LookupRequestsBody>;

/** The items found, in the order of the ids asked for; an id the device does not hold is left out. */
export const LookupRequestsResponse = z.object({ items: z.array(CapturedItem) });
export type LookupRequestsResponse = z.infer<typeof LookupRequestsResponse>;

/** DELETE /v1/requests, DELETE /v1/devices/{id}/requests: how many items were removed. */
export const DeletedCountResponse = z.object({ success: z.literal(true), deleted: z.number().int().nonnegative() });
export type DeletedCountResponse = z.infer<typeof DeletedCountResponse>;

/**
 * GET /v1/devices/{id}/send-ping, /take-screenshot, /open-spyglass-sheet: the device ran the
 * command; `data` is what it answered. 409 'Device is offline' when no server node holds a
 * connection to it or it did not answer in time.
 */
export const DeviceCommandResponse = z.object({ success: z.literal(true), data: z.unknown().optional() });
export type DeviceCommandResponse = z.infer<typeof DeviceCommandResponse>;
