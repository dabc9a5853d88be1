import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SESSION_MESSAGES, type Session } from '@spyglass/protocol';
import { useCallback, useId, useMemo, useSyncExternalStore } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/document-title';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { SessionError } from './session-error';
import { SessionName } from './session-name';
import { arrivedSession, takeFirstSessionItems, takeSession } from './session-prefetch';
import { SessionView } from './session-view';
import { CopyShareUrlButton, ShareModal } from './share-modal';
import {
  fetchSession, fetchSessionItem, sessionItemPages, sessionItemsLoader, sessionQueryKey, SESSIONS_QUERY_KEY, updateSession,
} from './sessions.api';
import { useSessionItems } from './use-session-items';
import { useSessionShare } from './use-session-share';

/** /sessions/{id}: a saved session for its owner (spec 001 'Sessions'). */
export function SessionPage() {
  const { sessionId = '' } = useParams();
  const queryClient = useQueryClient();
  const session = useQuery({
    queryKey: sessionQueryKey(sessionId),
    queryFn: () => takeSession(sessionId) ?? fetchSession(sessionId),
    initialData: () => arrivedSession(sessionId)?.session,
    initialDataUpdatedAt: () => arrivedSession(sessionId)?.at,
    retry: false,
  });
  // A session never changes its items: streamed in once per visit, the first page shown at once.
  // Asked alongside the session, not after it (both may already be on their way: session-prefetch.ts).
  const items = useSessionItems(sessionId, (signal) => sessionItemPages(sessionId, signal, takeFirstSessionItems(sessionId)));
  const itemsError = useSyncExternalStore(items?.subscribe ?? noChanges, () => items?.state.error ?? null);
  const share = useSessionShare();
  const rename = useMutation({
    mutationFn: (name: string) => updateSession(sessionId, { name }),
    onSuccess: (updated) => {
      queryClient.setQueryData<Session>(sessionQueryKey(sessionId), updated);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY, exact: true });
      toast.success(SESSION_MESSAGES.updated);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to update session')),
  });
  const loadItem = useCallback((id: string) => fetchSessionItem(sessionId, id), [sessionId]);
  const loadItems = useMemo(() => sessionItemsLoader(sessionId), [sessionId]);
  const shareSwitchId = useId();
  useDocumentTitle(session.data?.name ?? 'Session');

  if (session.isError || itemsError !== null) {
    const error = session.error ?? itemsError;
    const notFound = error instanceof ApiError && error.status === 404;
    return <SessionError message={notFound ? SESSION_MESSAGES.notFound : SESSION_MESSAGES.loadFailed} />;
  }
  if (!session.data || !items) {
    return <div className="page-body page-body-center session-loading" role="status"><Spinner size={16} /> Loading session...</div>;
  }
  const s = rename.isPending ? { ...session.data, name: rename.variables } : session.data;
  return (
    <>
      <SessionView
        mode="session"
        deviceId={s.deviceId}
        device={s.metaData.device}
        createdAt={s.createdAt}
        items={items}
        total={s.metaData.requests}
        loadItem={loadItem}
        loadItems={loadItems}
        title={<SessionName name={s.name} editable onRename={(name) => rename.mutate(name)} />}
        actions={(
          <>
            {s.isShared && s.shareUrl && <CopyShareUrlButton url={s.shareUrl} />}
            <div className="session-share-toggle">
              <label htmlFor={shareSwitchId} aria-hidden="true">Share Session</label>
              <Switch
                id={shareSwitchId}
                label="Share Session"
                checked={s.isShared}
                disabled={share.pendingId === s.id}
                onChange={(event) => share.setShared(s.id, event.target.checked)}
              />
            </div>
          </>
        )}
      />
      <ShareModal url={share.modalUrl} onOpenChange={(open) => !open && share.closeModal()} />
    </>
  );
}

const noChanges = () => () => {};
