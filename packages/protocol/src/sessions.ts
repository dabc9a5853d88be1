import { z } from 'zod';
import { Id } from './common';
import { DevicePlatform } from './devices';
import { CapturedItem } from './items';
import { CompactItemSchema, LOOKUP_REQUESTS_MAX } from './requests';

/** The longest session name (spec 001 §5: oversized names are refused). */
export const SESSION_NAME_MAX = 200;
/**
 * The most items one session may hold; also bounds the body of POST /v1/sessions (~10 MB of ids).
 * Each is a copied row: the cap bounds what one request adds to the database.
 */
export const SESSION_MAX_ITEMS = 100_000;
/** Pages of GET /v1/sessions/{id}/items. */
export const SESSION_ITEMS_PAGE_MAX = 5000;
export const SESSION_ITEMS_PAGE_DEFAULT = 5000;

/**
 * The `<meta name>` the share host puts into the page it serves: the page then reads the shared
 * session's data.json from its own origin and calls no /v1.
 */
export const SHARE_HOST_META = 'spyglass-share-host';

/** Spec 001 §8 texts of the session screens. */
export const SESSION_MESSAGES = {
  notFound: 'Session not found',
  sharedNotFound: 'Session not found or no longer publicly available',
  loadFailed: 'Failed to load session',
  sharedLoadFailed: 'Failed to get shared session',
  saved: 'Session saved',
  updated: 'Session updated!',
  deleted: 'Session deleted',
  nothingToSave: 'No requests to save',
} as const;

/** Default name of a saved session (spec 001 §5): 'Session' plus an ISO timestamp. */
export function defaultSessionName(now: Date = new Date()): string {
  return `Session ${now.toISOString()}`;
}

const SessionName = z.string().trim()
  .min(1, 'Session name is required')
  .max(SESSION_NAME_MAX, `Session name must be at most ${SESSION_NAME_MAX} characters`);

/** POST /v1/sessions (spec 001 §7): the items are copied, so the session outlives the device's live list. */
export const CreateSessionBody = z.object({
  deviceId: z.string().min(1).max(200),
  name: SessionName,
  requestIds: z.array(Id).min(1, SESSION_MESSAGES.nothingToSave)
    .max(SESSION_MAX_ITEMS, `A session holds at most ${SESSION_MAX_ITEMS} requests`),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/** PUT /v1/sessions/{id}: rename and/or share (spec 001 §7 `{isShared, name}`). */
export const UpdateSessionBody = z.object({
  name: SessionName.optional(),
  isShared: z.boolean().optional(),
}).refine((b) => b.name !== undefined || b.isShared !== undefined, 'Nothing to update: send name or isShared');
export type UpdateSessionBody = z.infer<typeof UpdateSessionBody>;

/** What a session keeps of its device, so that it still reads well after the device is deleted. */
export const SessionDevice = z.object({
  name: z.string(),
  clientAppVersion: z.string().nullable(),
  platform: DevicePlatform.nullable(),
  model: z.string().nullable(),
  systemVersion: z.string().nullable(),
});
export type SessionDevice = z.infer<typeof SessionDevice>;

/**
 * A saved session (spec 001 §3). `requestIds` of the spec are served as the session's own items
 * (GET /v1/sessions/{id}/items) rather than inline: a session may hold 250,000 of them.
 */
export const Session = z.object({
  id: z.string(),
  name: z.string(),
  deviceId: z.string(),
  isShared: z.boolean(),
  /** The public link while shared, else null. */
  shareUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  device: z.object({ name: z.string(), clientAppVersion: z.string().nullable() }),
  metaData: z.object({ requests: z.number().int().nonnegative(), device: SessionDevice }),
});
export type Session = z.infer<typeof Session>;

export const SessionList = z.array(Session);

/** Pages of a session's items, oldest first by `num` (1 = oldest); `after` is the previous page's `nextAfter`. */
export const SessionItemsQuery = z.object({
  after: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(SESSION_ITEMS_PAGE_MAX).default(SESSION_ITEMS_PAGE_DEFAULT),
});
export type SessionItemsQuery = z.infer<typeof SessionItemsQuery>;

/**
 * POST /v1/sessions/{id}/items/lookup: full items of the session with these ids, for its export;
 * answered as LookupRequestsResponse (in the order asked, ids it does not hold left out).
 */
export const SessionItemsLookupBody = z.object({
  ids: z.array(z.string().min(1).max(100)).min(1).max(LOOKUP_REQUESTS_MAX),
});
export type SessionItemsLookupBody = z.infer<typeof SessionItemsLookupBody>;

export const SessionItemsPage = z.object({
  items: z.array(CompactItemSchema),
  /** Pass as `after` for the next (newer) page; null on the last page. */
  nextAfter: z.number().int().nullable(),
});
export type SessionItemsPage = z.infer<typeof SessionItemsPage>;

/** The public part of a shared session: no owner, no share state. */
export const SharedSessionInfo = Session.pick({ id: true, name: true, deviceId: true, createdAt: true, device: true, metaData: true });
export type SharedSessionInfo = z.infer<typeof SharedSessionInfo>;

/** GET /shared-sessions/{id}/data.json on the share host: the session and its full items, oldest first. */
export const SharedSessionData = z.object({
  session: SharedSessionInfo,
  items: z.array(CapturedItem),
});
export type SharedSessionData = z.infer<typeof SharedSessionData>;

/** Path of a shared session's page and data on the share host. */
export const sharedSessionPath = (id: string): string => `/shared-sessions/${encodeURIComponent(id)}`;
export const sharedSessionDataPath = (id: string): string => `${sharedSessionPath(id)}/data.json`;
