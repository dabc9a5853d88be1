import type { QueryClient } from '@tanstack/react-query';
import type { Session, SessionItemsPage } from '@spyglass/protocol';
import { preloadable } from '../../lib/preloadable';
import { readToken } from '../../lib/storage';
import { fetchFirstSessionItems, fetchSession, fetchSharedSessionData, isShareHost, sessionQueryKey } from './sessions.api';

/*
 * A session's page asks for its data as soon as it is known to be wanted (the click on a session,
 * the page loaded on its address), not once its chunk has loaded and its first render has run:
 * that waterfall was 90-140 ms from the click and ~400 ms on a page load (bench 51). What is asked
 * ahead is kept here until the page takes it, once.
 */

export const sessionScreen = preloadable(() => import('./session-page').then((m) => m.SessionPage));
export const sharedSessionScreen = preloadable(() => import('./shared-session-page').then((m) => m.SharedSessionPage));

/** Past this, what was asked ahead and never taken (the user went elsewhere) is dropped. */
const KEEP_MS = 15_000;

interface Ahead<T> {
  value: T;
  timer: ReturnType<typeof setTimeout>;
  dropped(): void;
}

/** What was asked ahead, by session id, until taken or dropped after KEEP_MS. */
class AheadOf<T> {
  private readonly entries = new Map<string, Ahead<T>>();

  has(id: string): boolean {
    return this.entries.has(id);
  }

  peek(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /** `dropped` runs if it is never taken (or is replaced by a newer one). */
  put(id: string, value: T, dropped: () => void = () => {}): void {
    this.drop(id);
    const timer = setTimeout(() => this.drop(id), KEEP_MS);
    this.entries.set(id, { value, timer, dropped });
  }

  take(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    clearTimeout(entry.timer);
    return entry.value;
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.take(id);
    entry.dropped();
  }
}

const sessions = new AheadOf<Promise<Session>>();
/** Those of `sessions` that have arrived, with when (the query cache's freshness). */
const arrivedSessions = new AheadOf<{ session: Session; at: number }>();
const firstPages = new AheadOf<Promise<SessionItemsPage>>();
const sharedData = new AheadOf<{ response: Promise<Response>; controller: AbortController }>();

/** Its rejection is the taker's to handle; one never taken must not be reported as unhandled. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * The owner's session `id` is about to open: its page's chunk, the session (unless `known`, the
 * copy the Sessions list shows, seeds the query cache) and its first page of items are asked now.
 */
export function prefetchSession(id: string, known?: { queryClient: QueryClient; session: Session; updatedAt: number }): void {
  void sessionScreen.preload().catch(() => {});
  if (known) {
    const cached = known.queryClient.getQueryState(sessionQueryKey(id));
    if (!cached?.data || cached.dataUpdatedAt < known.updatedAt) {
      known.queryClient.setQueryData(sessionQueryKey(id), known.session, { updatedAt: known.updatedAt });
    }
  } else if (!sessions.has(id)) {
    const session = quiet(fetchSession(id));
    sessions.put(id, session);
    session.then((answer) => arrivedSessions.put(id, { session: answer, at: Date.now() }), () => {});
  }
  // A session never changes its items: a first page asked a moment ago is as good as a new one.
  if (!firstPages.has(id)) firstPages.put(id, quiet(fetchFirstSessionItems(id)));
}

/** The session asked for ahead, if any (taken once). */
export const takeSession = (id: string) => sessions.take(id);

/**
 * The session asked for ahead if it has already arrived: the page's first render can show it
 * (waiting for the query to take it costs a task, and a frame painted meanwhile).
 */
export const arrivedSession = (id: string) => arrivedSessions.peek(id);

/** The first page of items asked for ahead, if any (taken once). */
export const takeFirstSessionItems = (id: string) => firstPages.take(id);

/**
 * data.json asked for ahead on the share host, if any (taken once); aborting `signal` then
 * aborts it.
 */
export function takeSharedSessionData(id: string, signal: AbortSignal): Promise<Response> | undefined {
  const ahead = sharedData.take(id);
  if (!ahead) return undefined;
  if (signal.aborted) ahead.controller.abort();
  else signal.addEventListener('abort', () => ahead.controller.abort(), { once: true });
  return ahead.response;
}

const OWNER_SESSION = /^\/sessions\/([^/]+)\/?$/;
const SHARED_SESSION = /^\/shared-sessions\/([^/]+)\/?$/;

/**
 * At boot, before the app's first render: on a session's address, its chunk and its data are
 * asked for alongside the app's own first calls. The owner's only with a stored token (signed out,
 * that address shows the sign-in form); data.json only on the share host, which reads it from its
 * own origin (elsewhere its address comes from GET /v1/config).
 */
export function prefetchForAddress(pathname: string): void {
  const owner = OWNER_SESSION.exec(pathname);
  if (owner && readToken()) {
    prefetchSession(decodeURIComponent(owner[1]!));
    return;
  }
  const shared = SHARED_SESSION.exec(pathname);
  if (!shared) return;
  void sharedSessionScreen.preload().catch(() => {});
  if (!isShareHost()) return;
  const id = decodeURIComponent(shared[1]!);
  const controller = new AbortController();
  sharedData.put(id, { response: quiet(fetchSharedSessionData(id, '', controller.signal)), controller }, () => controller.abort());
}
