import type { CompactItem } from '@spyglass/protocol';

/** Distinct strings a pool keeps: enough for a device's hosts, methods, header values and levels. */
const MAX_POOLED = 10_000;
/** Longer strings are rarely repeated and would be kept alive by the pool after their items go. */
const MAX_POOLED_LENGTH = 200;

/** Shared by every item without tags, so that 100k items hold one empty array rather than 100k. */
const NO_TAGS: string[] = Object.freeze([]) as unknown as string[];

/**
 * One copy of each repeated string of the items a store holds. Items parsed from JSON (history
 * pages, live messages) carry their own copy of every string, even of values that repeat on
 * every item (the device id, `GET`, `application/json; charset=utf-8`, a user agent). Up to
 * `MAX_POOLED` distinct short strings are kept; when unique values (request ids) have filled it,
 * it starts afresh, so values common later in a long capture are shared too. Items keep the
 * copies they were given either way.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  /** Distinct strings kept now. */
  get size(): number {
    return this.strings.size;
  }

  share(value: string): string {
    const kept = this.strings.get(value);
    if (kept !== undefined) return kept;
    if (value.length > MAX_POOLED_LENGTH) return value;
    if (this.strings.size >= MAX_POOLED) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  clear(): void {
    this.strings.clear();
  }
}

function shareHeaders(headers: Record<string, string> | undefined, pool: StringPool): void {
  if (!headers) return;
  for (const name in headers) headers[name] = pool.share(headers[name]!);
}

/**
 * Replaces the strings of `item` by equal ones it or earlier items already hold (JS heap issue
 * 15): the row fields that repeat the details (`url`, `method`), the timestamps that repeat
 * `createdAt`, and the values common to many items through `pool`. Only equal strings are
 * swapped, so nothing a reader sees changes; done in place as the store takes the item.
 */
export function shareItemStrings(item: CompactItem, pool: StringPool): void {
  item.deviceId = pool.share(item.deviceId);
  if (item.updatedAt === item.createdAt) item.updatedAt = item.createdAt;
  if (item.sentAt !== null && item.sentAt === item.createdAt) item.sentAt = item.createdAt;
  if (item.level !== null) item.level = pool.share(item.level);
  if (item.tags.length === 0) item.tags = NO_TAGS;
  switch (item.type) {
    case 'network': {
      const { request, response } = item.details;
      request.method = pool.share(request.method);
      if (item.method === request.method) item.method = request.method;
      if (item.url === request.url) item.url = request.url;
      if (request.startedAt === item.createdAt) request.startedAt = item.createdAt;
      shareHeaders(request.headers, pool);
      shareHeaders(response?.headers, pool);
      if (response?.statusText !== undefined) response.statusText = pool.share(response.statusText);
      break;
    }
    case 'log': {
      const details = item.details;
      if (details.level !== undefined) details.level = pool.share(details.level);
      if (details.category !== undefined) details.category = pool.share(details.category);
      if (details.subsystem !== undefined) details.subsystem = pool.share(details.subsystem);
      break;
    }
    case 'event':
    case 'firebaseAnalytics':
      item.details.name = pool.share(item.details.name);
      if (item.details.category !== undefined) item.details.category = pool.share(item.details.category);
      break;
    case 'screenshot':
      if (item.details.mimeType !== undefined) item.details.mimeType = pool.share(item.details.mimeType);
      break;
  }
}
