import type { SharedSessionInfo } from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import { toFullItem } from '../repositories/item-columns';
import { findSessionItemRows } from '../repositories/sessions.repository';

/** Rows read per query: bounds memory (inline bodies are at most 64 KB each) while keeping queries few. */
export const SHARED_PAGE_ROWS = 200;

/**
 * data.json of a shared session, `{session, items}`, as chunks: the head goes out before the
 * first query, then one chunk per page of full items (bodies and screenshots included, so the
 * public page needs no other call). Pulled by the response stream, so a slow reader holds at
 * most a page or two in memory, whatever the session's size.
 */
export async function* sharedSessionJson(db: Db, blobs: BlobStore, sessionId: string, info: SharedSessionInfo): AsyncGenerator<string> {
  yield `{"session":${JSON.stringify(info)},"items":[`;
  let after = 0;
  let first = true;
  for (;;) {
    const rows = await findSessionItemRows(db, sessionId, after, SHARED_PAGE_ROWS);
    if (rows.length === 0) break;
    const parts: string[] = [];
    for (const row of rows) parts.push(JSON.stringify(await toFullItem(row, blobs)));
    yield (first ? '' : ',') + parts.join(',');
    // On SQLite each page is a synchronous query: let ingest commits and other requests run between pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
    first = false;
    after = Number(rows[rows.length - 1]!.num);
    if (rows.length < SHARED_PAGE_ROWS) break;
  }
  yield ']}';
}
