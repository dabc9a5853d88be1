import { useQuery } from '@tanstack/react-query';
import { PRODUCT_NAME, SESSION_MESSAGES, SHARE_HOST_META, type CapturedItem, type CompactItem, type SharedSessionInfo } from '@spyglass/protocol';
import { useCallback, useState, useSyncExternalStore } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { fetchPublicConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/document-title';
import { Logo, LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { SessionError } from './session-error';
import { SessionName } from './session-name';
import { SessionView } from './session-view';
import { fullItemOf } from './session-items';
import { isShareHost, streamSharedSession } from './sessions.api';
import { takeSharedSessionData } from './session-prefetch';
import { useSessionItems } from './use-session-items';

/**
 * Where data.json comes from: this origin on the share host (which has no /v1 to ask), else the
 * share host the server names in GET /v1/config.
 */
function useShareBase(): string | null {
  const onShareHost = isShareHost();
  const config = useQuery({ queryKey: ['public-config'], queryFn: fetchPublicConfig, staleTime: Infinity, enabled: !onShareHost });
  if (onShareHost) return '';
  return config.data?.shareUrl ?? (config.isError ? '' : null);
}

/**
 * /shared-sessions/{id}: the public read-only view of a shared session (spec 001 'Sessions', §6),
 * for anyone with the link, signed in or not. Nothing here writes: no settings, no deletes, no
 * mock controls, no rename, no share toggle.
 */
export function SharedSessionPage() {
  const { sessionId = '' } = useParams();
  const { isAuthenticated } = useAuth();
  const base = useShareBase();
  const [session, setSession] = useState<SharedSessionInfo | null>(null);
  // data.json is read as a stream: its head names the session, then its items arrive in batches.
  const items = useSessionItems(base === null ? null : `${sessionId} ${base}`, (signal) => sharedItems(sessionId, base ?? '', signal, setSession));
  const error = useSyncExternalStore(items?.subscribe ?? noChanges, () => items?.state.error ?? null);
  const loadItem = useCallback(async (id: string): Promise<CapturedItem> => {
    const item = items && fullItemOf(items, id);
    if (!item) throw new ApiError('Request not found', 404);
    return item;
  }, [items]);
  useDocumentTitle(session?.name ?? 'Shared session');

  let body;
  if (error !== null) {
    const notFound = error instanceof ApiError && error.status === 404;
    body = (
      <SessionError message={notFound ? SESSION_MESSAGES.sharedNotFound : SESSION_MESSAGES.sharedLoadFailed}>
        <div className="empty-state-actions"><a className="btn btn-primary" href={homeUrl()}>Return to Home</a></div>
      </SessionError>
    );
  } else if (!session || !items) {
    body = <div className="page-body page-body-center session-loading" role="status"><Spinner size={16} /> Loading session...</div>;
  } else {
    body = (
      <SessionView
        mode="public"
        deviceId={session.deviceId}
        device={session.metaData.device}
        createdAt={session.createdAt}
        items={items}
        total={session.metaData.requests}
        loadItem={loadItem}
        title={<SessionName name={session.name} editable={false} />}
        actions={<PoweredBy />}
      />
    );
  }
  // Signed in, the dashboard's shell frames it; anyone else sees it on its own, and when there is
  // no session to show, under the product's name with the way home.
  if (isAuthenticated) return body;
  return (
    <div className="shared-session-page">
      {error !== null && (
        <header className="shared-session-header">
          <a className="shared-session-brand" href={homeUrl()} aria-label={`${PRODUCT_NAME} home`}><Logo /></a>
        </header>
      )}
      {body}
    </div>
  );
}

/**
 * The product's home: this origin's, or on the share host (which has none) the dashboard whose
 * address the server puts in the page's share-host mark.
 */
function homeUrl(): string {
  const dashboard = document.querySelector(`meta[name="${SHARE_HOST_META}"]`)?.getAttribute('content') ?? '';
  return /^https?:\/\//.test(dashboard) ? `${dashboard.replace(/\/+$/, '')}/` : '/';
}

const noChanges = () => () => {};

/** The items of a shared session's data.json as they stream in; its head goes to `onSession`. */
async function* sharedItems(sessionId: string, base: string, signal: AbortSignal, onSession: (session: SharedSessionInfo) => void): AsyncGenerator<readonly CompactItem[]> {
  const ahead = base === '' ? takeSharedSessionData(sessionId, signal) : undefined;
  for await (const part of streamSharedSession(sessionId, base, signal, ahead)) {
    if (part.type === 'session') onSession(part.session);
    else yield part.items;
  }
}

function PoweredBy() {
  return (
    <span className="powered-by">
      <LogoMark size={16} />
      <span>Powered by {PRODUCT_NAME}</span>
    </span>
  );
}
