import { ITEM_LIMITS, type DeviceItem, type NetworkDetails } from '@spyglass/protocol';
import { BlobStore, type BlobField } from '../blobs/blob-store';
import type { ItemRow, ParsedColumns } from '../repositories/item-columns';

/** A validated item turned into its row, waiting for its display number (given at commit). */
export interface PreparedRow {
  columns: Omit<ItemRow, 'num'>;
  /**
   * The JSON columns as values, so that the live side gets them without parsing them back; null
   * when nobody watched the device as the frame arrived (holding them until the commit would keep
   * every item's object tree alive through the garbage collector's young generation for nothing).
   */
  parsed: ParsedColumns | null;
}

interface StoredBody {
  /** Inline body, or the preview of an offloaded one; null when the item carries no body. */
  text: string | null;
  blob: string | null;
}

export interface RowContext {
  userId: string;
  deviceId: string;
  blobs: BlobStore;
  receivedAt: number;
  /** Whether to keep the parsed JSON columns for the live side (someone watches the device). */
  keepParsed: boolean;
}

/** Devices' clocks drift, but not by more than a day ahead; and nothing was captured before 2000. */
const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;
const EARLIEST_INSTANT = Date.UTC(2000, 0, 1);

function parseInstant(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * When an item was captured or sent, or null (the receive time is used instead) when the device's
 * value does not parse or lies outside a window around the server's clock: a time far in the
 * future would sort first for ever and hold back retention.
 */
function itemInstant(value: string | undefined, receivedAt: number): number | null {
  const ms = parseInstant(value);
  return ms !== null && ms >= EARLIEST_INSTANT && ms <= receivedAt + MAX_CLOCK_AHEAD_MS ? ms : null;
}

/**
 * Bodies up to 64 KB stay on the row; larger ones go to the blob store and the row keeps a
 * preview. The blob write is asynchronous, so a large body never blocks the event loop.
 */
function storeBody(body: string | null | undefined, field: BlobField, itemId: string, ctx: RowContext, writes: Promise<void>[]): StoredBody {
  if (body === undefined || body === null || body === '') return { text: null, blob: null };
  if (body.length * 3 <= ITEM_LIMITS.inlineBodyBytes || Buffer.byteLength(body) <= ITEM_LIMITS.inlineBodyBytes) {
    return { text: body, blob: null };
  }
  const key = BlobStore.key(ctx.userId, ctx.deviceId, itemId, field);
  writes.push(ctx.blobs.put(key, body));
  return { text: body.slice(0, ITEM_LIMITS.bodyPreviewBytes), blob: key };
}

function networkDuration(details: NetworkDetails): number | null {
  if (typeof details.timings?.total === 'number') return details.timings.total;
  const start = parseInstant(details.request.startedAt);
  const end = parseInstant(details.response?.receivedAt);
  return start !== null && end !== null && end >= start ? end - start : null;
}

export interface PreparedItems {
  rows: PreparedRow[];
  /** Settles once every blob of these rows is written (null: none to write). */
  blobsWritten: Promise<void> | null;
}

/**
 * Turns validated device items into rows. Blob writes start here and are awaited by the caller
 * before the rows are committed, so a committed row never points at a missing file; frames
 * without large bodies stay on the synchronous path. The items are the caller's own copies and
 * are changed: bodies and images are taken off their details.
 */
export function prepareRows(items: DeviceItem[], ctx: RowContext): PreparedItems {
  const writes: Promise<void>[] = [];
  const rows = items.map((item) => prepareRow(item, ctx, writes));
  return { rows, blobsWritten: writes.length > 0 ? Promise.all(writes).then(() => undefined) : null };
}

/**
 * One item's row: list columns derived from the details, bodies and screenshot image split off
 * the details JSON.
 */
function prepareRow(item: DeviceItem, ctx: RowContext, writes: Promise<void>[]): PreparedRow {
  const details: Record<string, unknown> = item.details;
  let method: string | null = null;
  let url: string | null = null;
  let status: number | null = null;
  let duration: number | null = null;
  let level: string | null = item.level ?? null;
  let requestBody: StoredBody = { text: null, blob: null };
  let responseBody: StoredBody = { text: null, blob: null };
  let imageBlob: string | null = null;
  let bodyBytes = 0;

  switch (item.type) {
    case 'network': {
      const d = item.details;
      method = d.request.method;
      url = d.request.url;
      status = d.response?.statusCode ?? null;
      duration = networkDuration(d);
      requestBody = storeBody(d.request.body, 'requestBody', item.id, ctx, writes);
      responseBody = storeBody(d.response?.body, 'responseBody', item.id, ctx, writes);
      bodyBytes = (d.request.body?.length ?? 0) + (d.response?.body?.length ?? 0);
      // The item is this frame's own copy (validation built it): the bodies are taken off it in
      // place rather than by copying the details (JSON.stringify leaves undefined out).
      d.request.body = undefined;
      if (d.response) d.response.body = undefined;
      break;
    }
    case 'screenshot': {
      const image = item.details.image;
      if (image) {
        imageBlob = BlobStore.key(ctx.userId, ctx.deviceId, item.id, 'image');
        writes.push(ctx.blobs.put(imageBlob, image));
        bodyBytes = image.length;
      }
      item.details.image = undefined;
      break;
    }
    case 'log':
    case 'firebaseAnalytics':
      level = level ?? item.details.level ?? null;
      break;
    case 'event':
      break;
  }
  const detailsJson = JSON.stringify(details);
  const tags = item.tags ?? [];
  const metaData = item.metaData ?? null;
  const columns: PreparedRow['columns'] = {
    user_id: ctx.userId,
    device_id: ctx.deviceId,
    id: item.id,
    type: item.type,
    level,
    method,
    url,
    status,
    duration,
    size: detailsJson.length + bodyBytes,
    sent_at: itemInstant(item.sentAt, ctx.receivedAt),
    created_at: itemInstant(item.createdAt, ctx.receivedAt) ?? ctx.receivedAt,
    updated_at: ctx.receivedAt,
    tags: tags.length === 0 ? '[]' : JSON.stringify(tags),
    notes: null,
    is_mocked: item.isMocked ? 1 : 0,
    mock: null,
    mock_data: null,
    meta_data: metaData ? JSON.stringify(metaData) : null,
    details: detailsJson,
    request_body: requestBody.text,
    request_body_blob: requestBody.blob,
    response_body: responseBody.text,
    response_body_blob: responseBody.blob,
    image_blob: imageBlob,
  };
  return { columns, parsed: ctx.keepParsed ? { details, tags, metaData } : null };
}

/**
 * Two versions of one item in the same commit (a network request and its completion sent in
 * quick succession) become one row: the later wins, except for bodies it does not carry.
 */
export function mergeRows(earlier: PreparedRow, later: PreparedRow): PreparedRow {
  const a = earlier.columns;
  const b = later.columns;
  return {
    parsed: later.parsed,
    columns: {
      ...b,
      created_at: a.created_at,
      request_body: b.request_body ?? a.request_body,
      request_body_blob: b.request_body === null ? a.request_body_blob : b.request_body_blob,
      response_body: b.response_body ?? a.response_body,
      response_body_blob: b.response_body === null ? a.response_body_blob : b.response_body_blob,
      image_blob: b.image_blob ?? a.image_blob,
    },
  };
}
