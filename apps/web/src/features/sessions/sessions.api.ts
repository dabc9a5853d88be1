import { useQuery } from '@tanstack/react-query';
import {
  CapturedItem, ErrorBody, Session, SESSION_ITEMS_PAGE_MAX, SESSION_MESSAGES, SessionItemsPage, SessionList, SHARE_HOST_META, SharedSessionInfo,
  sharedSessionDataPath, SuccessBody, type CompactItem, type CreateSessionBody, type UpdateSessionBody,
} from '@spyglass/protocol';
import { api, ApiError } from '../../lib/api';
import { lookupLoader } from '../requests/requests.api';
import { JsonItemsScanner } from './json-items-scanner';

export const SESSIONS_QUERY_KEY = ['sessions'] as const;
export const sessionQueryKey = (id: string) => ['sessions', id] as const;

export const fetchSessions = () => api.get('/sessions', SessionList, { errorMessage: 'Failed to load sessions' });

/** The account's sessions, newest first (spec 001 §7 GET /sessions). */
export function useSessions() {
  return useQuery({ queryKey: SESSIONS_QUERY_KEY, queryFn: fetchSessions });
}

export const fetchSession = (id: string) =>
  api.get(`/sessions/${encodeURIComponent(id)}`, Session, { errorMessage: SESSION_MESSAGES.loadFailed });

export const createSession = (body: CreateSessionBody) => api.post('/sessions', body, Session);

export const updateSession = (id: string, body: UpdateSessionBody) =>
  api.put(`/sessions/${encodeURIComponent(id)}`, body, Session);

export const deleteSession = (id: string) => api.delete(`/sessions/${encodeURIComponent(id)}`, SuccessBody);

/** The first page is small so that the first screen shows at once; the rest come in large pages. */
const FIRST_SESSION_PAGE = 200;

/** One page of a session's items, oldest first, after the item numbered `after` (GET /v1/sessions/{id}/items). */
const fetchSessionItemsPage = (id: string, after: number, limit: number, signal?: AbortSignal): Promise<SessionItemsPage> =>
  api.get(`/sessions/${encodeURIComponent(id)}/items`, SessionItemsPage, {
    query: { after, limit },
    signal,
    errorMessage: SESSION_MESSAGES.loadFailed,
  });

/** A session's first page of items, for a page that asks for it before the session page renders. */
export const fetchFirstSessionItems = (id: string) => fetchSessionItemsPage(id, 0, FIRST_SESSION_PAGE);

/**
 * A session's items, oldest first, page by page as they arrive; `firstPage`, when given, is the
 * first page already asked for (session-prefetch.ts).
 */
export async function* sessionItemPages(id: string, signal?: AbortSignal, firstPage?: Promise<SessionItemsPage>): AsyncGenerator<CompactItem[]> {
  let page: SessionItemsPage = await (firstPage ?? fetchSessionItemsPage(id, 0, FIRST_SESSION_PAGE, signal));
  for (;;) {
    yield page.items;
    if (page.nextAfter === null) return;
    page = await fetchSessionItemsPage(id, page.nextAfter, SESSION_ITEMS_PAGE_MAX, signal);
  }
}

/** Full items of a session's rows, a batch a call (POST /v1/sessions/{id}/items/lookup), for its export. */
export const sessionItemsLoader = (sessionId: string) => lookupLoader(`/sessions/${encodeURIComponent(sessionId)}/items/lookup`);

/** The full item of a session's row, bodies and screenshot included. */
export const fetchSessionItem = (sessionId: string, itemId: string) =>
  api.get(`/sessions/${encodeURIComponent(sessionId)}/items/${encodeURIComponent(itemId)}`, CapturedItem);

/** True on the public share host (SHARE_URL), whose page carries this mark (apps/server/src/share). */
export function isShareHost(): boolean {
  return document.querySelector(`meta[name="${SHARE_HOST_META}"]`) !== null;
}

/** A shared session's data.json, its body unread. */
export const fetchSharedSessionData = (id: string, shareBaseUrl: string, signal?: AbortSignal) =>
  fetch(`${shareBaseUrl}${sharedSessionDataPath(id)}`, { signal, credentials: 'omit' });

/** What a shared session's data.json gives as it streams in: its head first, then its items. */
export type SharedSessionPart = { type: 'session'; session: SharedSessionInfo } | { type: 'items'; items: CapturedItem[] };

/**
 * data.json of a shared session from the share host: no token, no /v1 (spec 001 §7), read as a
 * stream so that the first rows show while the rest still arrive. On the share host itself the
 * address is relative; the dashboard's own /shared-sessions route reads it from `shareBaseUrl`
 * (GET /v1/config).
 */
export async function* streamSharedSession(
  id: string,
  shareBaseUrl: string,
  signal?: AbortSignal,
  /** data.json already asked for (session-prefetch.ts). */
  ahead?: Promise<Response>,
): AsyncGenerator<SharedSessionPart> {
  let response: Response;
  try {
    response = await (ahead ?? fetchSharedSessionData(id, shareBaseUrl, signal));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(SESSION_MESSAGES.sharedLoadFailed, 0);
  }
  if (response.status === 404) throw new ApiError(SESSION_MESSAGES.sharedNotFound, 404);
  if (!response.ok) {
    const body = ErrorBody.safeParse(await response.json().catch(() => null));
    throw new ApiError(body.success ? body.data.error : SESSION_MESSAGES.sharedLoadFailed, response.status);
  }
  if (!response.body) throw new ApiError(SESSION_MESSAGES.sharedLoadFailed, response.status);
  const scanner = new JsonItemsScanner();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const invalid = () => new ApiError(SESSION_MESSAGES.sharedLoadFailed, response.status);
  let sawSession = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw invalid();
      }
      if (chunk.done) break;
      const parts = scanner.push(chunk.value);
      for (const [key, json] of parts.members) {
        if (key !== 'session') continue;
        const session = SharedSessionInfo.safeParse(JSON.parse(json));
        if (!session.success) throw invalid();
        sawSession = true;
        yield { type: 'session', session: session.data };
      }
      if (parts.items.length > 0) {
        const items = CapturedItem.array().safeParse(parts.items.map((json) => JSON.parse(json) as unknown));
        if (!items.success) throw invalid();
        yield { type: 'items', items: items.data };
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!scanner.done || !sawSession) throw invalid();
}
