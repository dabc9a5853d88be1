import { sql, type Insertable, type Selectable } from 'kysely';
import type { CapturedItem, CompactItem, ItemMockData } from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import { isTrue } from '../db/database';
import type { ItemsTable } from '../db/schema';

/**
 * The columns of a captured item, written once for the three tables' uses: live items
 * (`items`), the ingest's prepared statements, and session copies (`session_items` has the same
 * columns plus `session_id`). Rows are mapped to the protocol's item shapes here and nowhere else.
 */
export type ItemRow = Selectable<ItemsTable>;
export type NewItemRow = Insertable<ItemsTable>;

export const ITEM_COLUMNS = [
  'user_id', 'device_id', 'id', 'num', 'type', 'level', 'method', 'url', 'status', 'duration', 'size', 'sent_at', 'created_at',
  'updated_at', 'tags', 'notes', 'is_mocked', 'mock', 'mock_data', 'meta_data', 'details', 'request_body', 'request_body_blob',
  'response_body', 'response_body_blob', 'image_blob',
] as const satisfies ReadonlyArray<keyof NewItemRow>;

export type ItemColumn = (typeof ITEM_COLUMNS)[number];

/** Bodies and blob keys: read only when one item is opened. */
const BODY_COLUMNS = ['request_body', 'request_body_blob', 'response_body', 'response_body_blob', 'image_blob'] as const;
type BodyColumn = (typeof BODY_COLUMNS)[number];

/** The columns the list needs: everything but bodies (their presence is selected as flags, `bodyFlags`). */
export const COMPACT_COLUMNS = ITEM_COLUMNS.filter((c): c is Exclude<ItemColumn, BodyColumn> => !(BODY_COLUMNS as readonly string[]).includes(c));

/** What a session copies from a live item (its own `num` numbers the session's items 1..N). */
export const COPIED_COLUMNS = ITEM_COLUMNS.filter((c): c is Exclude<ItemColumn, 'num'> => c !== 'num');

/** Selected beside `COMPACT_COLUMNS`: whether the item has each body, without reading it. */
export const bodyFlags = [
  sql<number>`case when request_body is not null then 1 else 0 end`.as('has_request_body'),
  sql<number>`case when response_body is not null then 1 else 0 end`.as('has_response_body'),
] as const;

export type CompactItemRow = Pick<ItemRow, (typeof COMPACT_COLUMNS)[number]> & {
  has_request_body: number | boolean | null;
  has_response_body: number | boolean | null;
};

/** JSON columns the caller already holds as values (ingest), so that they are not parsed again. */
export interface ParsedColumns {
  details: Record<string, unknown>;
  tags: string[];
  metaData: Record<string, unknown> | null;
}

function json<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const flag = (v: number | boolean | null): boolean => v === true || Number(v) === 1;

/** The columns every item form is built from, a stored row's or one about to be inserted. */
type ItemFields = Omit<CompactItemRow, 'has_request_body' | 'has_response_body' | 'num'>;

/**
 * ISO text of epoch milliseconds, remembering the last one: the items of a commit share their
 * receive time, and items captured in a burst their capture millisecond.
 */
function isoFormatter(): (ms: number | null) => string | null {
  let lastMs = NaN;
  let last = '';
  return (ms) => {
    if (ms === null) return null;
    const n = Number(ms);
    if (n !== lastMs) {
      lastMs = n;
      last = new Date(n).toISOString();
    }
    return last;
  };
}
const sentIso = isoFormatter();
const createdIso = isoFormatter();
const updatedIso = isoFormatter();

function baseItem(row: ItemFields, num: number, parsed?: ParsedColumns) {
  return {
    id: row.id,
    deviceId: row.device_id,
    num,
    type: row.type,
    level: row.level,
    method: row.method,
    url: row.url,
    status: row.status,
    duration: row.duration === null ? null : Number(row.duration),
    size: Number(row.size),
    sentAt: sentIso(row.sent_at),
    createdAt: createdIso(row.created_at) as string,
    updatedAt: updatedIso(row.updated_at) as string,
    tags: parsed ? parsed.tags : json<string[]>(row.tags, []),
    notes: row.notes,
    isMocked: isTrue(row.is_mocked),
    mock: json<{ enabled: boolean } | null>(row.mock, null),
    mockData: json<ItemMockData | null>(row.mock_data, null),
    metaData: parsed ? parsed.metaData : json<Record<string, unknown> | null>(row.meta_data, null),
    details: parsed ? parsed.details : json<Record<string, unknown>>(row.details, {}),
  };
}

export function toCompactItem(row: CompactItemRow): CompactItem {
  const item = baseItem(row, Number(row.num)) as CompactItem;
  if (row.type === 'network') {
    item.hasRequestBody = flag(row.has_request_body);
    item.hasResponseBody = flag(row.has_response_body);
  }
  return item;
}

/**
 * A row just inserted, in the list form, without reading it back: ingest shows new items from the
 * row it wrote and the JSON values it parsed (or, when it did not keep them, from the row's text).
 */
export function insertedCompactItem(row: Omit<ItemRow, 'num'>, num: number, parsed: ParsedColumns | null): CompactItem {
  const item = baseItem(row, num, parsed ?? undefined) as CompactItem;
  if (row.type === 'network') {
    item.hasRequestBody = row.request_body != null;
    item.hasResponseBody = row.response_body != null;
  }
  return item;
}

/** The full item: inline bodies from the row, large ones and screenshots read from the blob store. */
export async function toFullItem(row: ItemRow, blobs: BlobStore): Promise<CapturedItem> {
  const item = baseItem(row, Number(row.num)) as CapturedItem;
  const details = item.details as Record<string, unknown>;
  if (row.type === 'network') {
    const request = details.request as Record<string, unknown> | undefined;
    const response = details.response as Record<string, unknown> | undefined;
    const requestBody = row.request_body_blob ? await blobs.read(row.request_body_blob) ?? row.request_body : row.request_body;
    const responseBody = row.response_body_blob ? await blobs.read(row.response_body_blob) ?? row.response_body : row.response_body;
    if (request && requestBody !== null) request.body = requestBody;
    if (response && responseBody !== null) response.body = responseBody;
  } else if (row.type === 'screenshot' && row.image_blob) {
    const image = await blobs.read(row.image_blob);
    if (image !== null) details.image = image;
  }
  return item;
}

/** The blob keys a set of rows points at. */
export function blobKeysOf(rows: Array<Pick<ItemRow, 'request_body_blob' | 'response_body_blob' | 'image_blob'>>): string[] {
  return rows.flatMap((r) => [r.request_body_blob, r.response_body_blob, r.image_blob]).filter((k): k is string => k !== null);
}

/** Rows in the order of `ids`, each once; ids without a row are left out. */
export function inAskedOrder<R extends { id: string }>(rows: readonly R[], ids: readonly string[]): R[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    byId.delete(id);
    return row ? [row] : [];
  });
}
