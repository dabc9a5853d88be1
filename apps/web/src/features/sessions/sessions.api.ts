import { useQuery } from '@tanstack/react-query';
import {
  CapturedItem, ErrorBody, Session, SESSION_MESSAGES, SessionItemsPage, SessionList, SHARE_HOST_META, SharedSessionData, sharedSessionDataPath,
  SuccessBody, type CompactItem, type CreateSessionBody, type UpdateSessionBody,
} from '@spyglass/protocol';
import { api, ApiError } from '../../lib/api';

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

/** Every item of a session, oldest first, page by page (GET /v1/sessions/{id}/items). */
export async function fetchAllSessionItems(id: string, signal?: AbortSignal): Promise<CompactItem[]> {
  const items: CompactItem[] = [];
  let after: number | null = 0;
  while (after !== null) {
    const page: SessionItemsPage = await api.get(`/sessions/${encodeURIComponent(id)}/items`, SessionItemsPage, {
      query: { after },
      signal,
      errorMessage: SESSION_MESSAGES.loadFailed,
    });
    items.push(...page.items);
    after = page.nextAfter;
  }
  return items;
}

/** The full item of a session's row, bodies and screenshot included. */
export const fetchSessionItem = (sessionId: string, itemId: string) =>
  api.get(`/sessions/${encodeURIComponent(sessionId)}/items/${encodeURIComponent(itemId)}`, CapturedItem);

/** True on the public share host (SHARE_URL), whose page carries this mark (apps/server/src/share). */
export function isShareHost(): boolean {
  return document.querySelector(`meta[name="${SHARE_HOST_META}"]`) !== null;
}

/**
 * data.json of a shared session from the share host: no token, no /v1 (spec 001 §7). On the share
 * host itself the address is relative; the dashboard's own /shared-sessions route reads it
 * from `shareBaseUrl` (GET /v1/config).
 */
export async function fetchSharedSession(id: string, shareBaseUrl: string, signal?: AbortSignal): Promise<SharedSessionData> {
  let response: Response;
  try {
    response = await fetch(`${shareBaseUrl}${sharedSessionDataPath(id)}`, { signal, credentials: 'omit' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(SESSION_MESSAGES.sharedLoadFailed, 0);
  }
  if (response.status === 404) throw new ApiError(SESSION_MESSAGES.sharedNotFound, 404);
  if (!response.ok) {
    const body = ErrorBody.safeParse(await response.json().catch(() => null));
    throw new ApiError(body.success ? body.data.error : SESSION_MESSAGES.sharedLoadFailed, response.status);
  }
  const parsed = SharedSessionData.safeParse(await response.json());
  if (!parsed.success) throw new ApiError(SESSION_MESSAGES.sharedLoadFailed, response.status);
  return parsed.data;
}
