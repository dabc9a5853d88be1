import { useQuery } from '@tanstack/react-query';
import { PRODUCT_NAME, SESSION_MESSAGES, type CapturedItem } from '@spyglass/protocol';
import { useCallback, useMemo } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { fetchPublicConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/document-title';
import { LogoMark } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { SessionError } from './session-error';
import { SessionName } from './session-name';
import { SessionView } from './session-view';
import { fetchSharedSession, isShareHost } from './sessions.api';

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
  const shared = useQuery({
    queryKey: ['shared-session', sessionId, base],
    queryFn: ({ signal }) => fetchSharedSession(sessionId, base ?? '', signal),
    enabled: base !== null,
    staleTime: Infinity,
    retry: false,
  });
  const byId = useMemo(() => new Map((shared.data?.items ?? []).map((item) => [item.id, item])), [shared.data]);
  const loadItem = useCallback(async (id: string): Promise<CapturedItem> => {
    const item = byId.get(id);
    if (!item) throw new ApiError('Request not found', 404);
    return item;
  }, [byId]);
  useDocumentTitle(shared.data?.session.name ?? 'Shared session');

  let body;
  if (shared.isError) {
    const notFound = shared.error instanceof ApiError && shared.error.status === 404;
    body = <SessionError message={notFound ? SESSION_MESSAGES.sharedNotFound : SESSION_MESSAGES.sharedLoadFailed} />;
  } else if (!shared.data) {
    body = <div className="page-body page-body-center session-loading" role="status"><Spinner size={16} /> Loading session...</div>;
  } else {
    const { session, items } = shared.data;
    body = (
      <SessionView
        mode="public"
        deviceId={session.deviceId}
        device={session.metaData.device}
        createdAt={session.createdAt}
        items={items}
        loadItem={loadItem}
        title={<SessionName name={session.name} editable={false} />}
        actions={<PoweredBy />}
      />
    );
  }
  // Signed in, the dashboard's shell frames it; anyone else sees it on its own.
  if (isAuthenticated) return body;
  return <div className="shared-session-page">{body}</div>;
}

function PoweredBy() {
  return (
    <span className="powered-by">
      <LogoMark size={16} />
      <span>Powered by {PRODUCT_NAME}</span>
    </span>
  );
}
