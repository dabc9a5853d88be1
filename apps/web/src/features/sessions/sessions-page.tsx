import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatTimestamp, SESSION_MESSAGES, TOAST_DURATION_MS, type Session } from '@spyglass/protocol';
import { History, RefreshCw, Search, Smartphone, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/document-title';
import { Button, IconButton } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { prefetchSession, sessionScreen } from './session-prefetch';
import { matchesSessionSearch } from './session-search';
import { ShareModal } from './share-modal';
import { deleteSession, SESSIONS_QUERY_KEY, useSessions } from './sessions.api';
import { useSessionShare } from './use-session-share';
import './sessions.css';

/** /sessions: the account's saved sessions (spec 001 'Sessions'). */
export function SessionsPage() {
  useDocumentTitle('Sessions');
  const sessions = useSessions();
  const [search, setSearch] = useState('');
  const [toDelete, setToDelete] = useState<Session | null>(null);
  const share = useSessionShare();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => deleteSession(id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Session[]>(SESSIONS_QUERY_KEY, (list) => list?.filter((s) => s.id !== id));
      toast.success(SESSION_MESSAGES.deleted, { duration: TOAST_DURATION_MS });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete session')),
    onSettled: () => setToDelete(null),
  });
  const shown = useMemo(() => (sessions.data ?? []).filter((s) => matchesSessionSearch(s, search)), [sessions.data, search]);
  const refreshing = sessions.isFetching && !sessions.isPending;
  // A session is most likely opened from here: its page's chunk is fetched while the list shows.
  useEffect(() => {
    void sessionScreen.preload().catch(() => {});
  }, []);

  let body;
  if (sessions.isPending) {
    body = <div className="page-body page-body-center sessions-message" role="status"><Spinner size={16} /> Loading sessions...</div>;
  } else if (sessions.isError) {
    body = (
      <div className="page-body page-body-center sessions-message is-error" role="alert">
        <span>{errorMessage(sessions.error, 'Failed to load sessions')}</span>
        <Button size="sm" onClick={() => void sessions.refetch()}>Retry</Button>
      </div>
    );
  } else if (sessions.data.length === 0) {
    body = (
      <div className="page-body page-body-center">
        <EmptyState
          icon={<History size={22} />}
          title="No sessions found"
          description="Open a device to record a session"
          actions={<Link className="btn btn-primary" to="/devices"><Smartphone size={14} aria-hidden="true" />Go to devices</Link>}
        />
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <div className="page-body page-body-center">
        <EmptyState icon={<Search size={22} />} title="No sessions found" actions={<Button onClick={() => setSearch('')}>Clear Search</Button>} />
      </div>
    );
  } else {
    body = (
      <div className="sessions-body">
        <SessionTable
          sessions={shown}
          updatedAt={sessions.dataUpdatedAt}
          sharingId={share.pendingId}
          onShare={(session, isShared) => share.setShared(session.id, isShared)}
          onDelete={setToDelete}
        />
      </div>
    );
  }

  return (
    <div className="page sessions-page">
      <PageHeader
        title="Sessions"
        count={sessions.data?.length ?? 0}
        actions={(
          <Button
            icon={<RefreshCw size={14} aria-hidden="true" className={refreshing ? 'is-spinning' : undefined} />}
            onClick={() => void sessions.refetch()}
            disabled={sessions.isFetching}
          >
            Refresh
          </Button>
        )}
      />
      {sessions.data !== undefined && sessions.data.length > 0 && (
        <div className="sessions-toolbar">
          <label className="sessions-search">
            <Search size={14} aria-hidden="true" className="sessions-search-icon" />
            <input
              className="input"
              type="search"
              placeholder="Search sessions..."
              aria-label="Search sessions"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setSearch('');
              }}
            />
          </label>
        </div>
      )}
      {body}
      <Dialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete session"
        description={toDelete ? `Are you sure you want to delete ${toDelete.name}? This action cannot be undone.` : undefined}
        actions={(
          <>
            <Button onClick={() => setToDelete(null)}>Cancel</Button>
            <Button variant="danger" loading={remove.isPending} onClick={() => toDelete && remove.mutate(toDelete.id)}>Delete</Button>
          </>
        )}
      />
      <ShareModal url={share.modalUrl} onOpenChange={(open) => !open && share.closeModal()} />
    </div>
  );
}

function SessionTable({ sessions, updatedAt, sharingId, onShare, onDelete }: {
  sessions: Session[];
  /** When the list was fetched: the session's page starts from the row's copy (as fresh as that). */
  updatedAt: number;
  sharingId: string | null;
  onShare(session: Session, isShared: boolean): void;
  onDelete(session: Session): void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // At the click, not at the page's first render: its first items are asked for at once.
  const prefetch = (session: Session) => prefetchSession(session.id, { queryClient, session, updatedAt });
  const open = (session: Session) => {
    prefetch(session);
    void navigate(`/sessions/${encodeURIComponent(session.id)}`);
  };
  return (
    <div className="sessions-table-wrap">
      <table className="sessions-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Device</th>
            <th scope="col">App Version</th>
            <th scope="col" className="sessions-col-shared">Shared</th>
            <th scope="col">Created At</th>
            <th scope="col" className="sessions-col-actions" aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id} className="sessions-row" onClick={() => open(session)}>
              <td className="sessions-name">
                <Link to={`/sessions/${encodeURIComponent(session.id)}`} onClick={(event) => {
                  event.stopPropagation();
                  prefetch(session);
                }}
                >
                  {session.name}
                </Link>
                <span className="sessions-count">{requestCount(session.metaData.requests)}</span>
              </td>
              <td>{session.device.name}</td>
              <td className="sessions-muted">{session.device.clientAppVersion ?? '—'}</td>
              <td className="sessions-col-shared" onClick={(event) => event.stopPropagation()}>
                <Switch
                  label={`Share ${session.name}`}
                  checked={session.isShared}
                  disabled={sharingId === session.id}
                  onChange={(event) => onShare(session, event.target.checked)}
                />
              </td>
              <td className="sessions-muted sessions-date">{formatTimestamp(session.createdAt, { withDate: true })}</td>
              <td className="sessions-col-actions" onClick={(event) => event.stopPropagation()}>
                <IconButton label="Delete session" className="sessions-delete" onClick={() => onDelete(session)}>
                  <Trash2 size={14} aria-hidden="true" />
                </IconButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** '1 request', '1,200 requests': the saved session's size beside its name. */
function requestCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'request' : 'requests'}`;
}
