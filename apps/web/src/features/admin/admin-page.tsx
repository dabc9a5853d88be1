import { ADMIN_MESSAGES, type AdminKpis, type AdminSortKey } from '@spyglass/protocol';
import { Search } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { AdminTable } from './admin-table';
import { useAdminUsers, type AdminListParams } from './admin.api';
import { useAdminColumns } from './use-admin-columns';
import './admin.css';

const SEARCH_DEBOUNCE_MS = 300;

const KPI_CARDS: Array<{ key: keyof AdminKpis; label: string }> = [
  { key: 'totalUsers', label: 'Total Users' },
  { key: 'onTrial', label: 'On Trial' },
  { key: 'teamActive', label: 'Team (Active)' },
  { key: 'proActive', label: 'Pro (Active)' },
  { key: 'enterpriseActive', label: 'Enterprise (Active)' },
];

/** /admin: User Management (spec 000 §2.7), for admins only. */
export function AdminPage() {
  useDocumentTitle('User Management');
  const { profile } = useAuth();
  if (!profile?.isAdmin) return <Navigate to="/devices" replace />;
  return <UserManagement />;
}

function UserManagement() {
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [hideDemoUsers, setHideDemoUsers] = useState(true);
  const [sort, setSort] = useState<{ column: AdminSortKey; order: 'asc' | 'desc' }>({ column: 'createdAt', order: 'desc' });
  const { columns, preview, save } = useAdminColumns();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchInput.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

  const params: AdminListParams = useMemo(() => ({ search, sort: sort.column, order: sort.order, hideDemoUsers }), [search, sort, hideDemoUsers]);
  const users = useAdminUsers(params);
  const first = users.data?.pages[0];
  const rows = useMemo(() => users.data?.pages.flatMap((page) => page.users) ?? [], [users.data]);

  // Spec 001 §4: a click sorts ascending, again toggles.
  const onSort = (column: AdminSortKey) =>
    setSort((current) => (current.column === column ? { column, order: current.order === 'asc' ? 'desc' : 'asc' } : { column, order: 'asc' }));

  let body;
  if (users.isPending) {
    body = <div className="page-body page-body-center admin-message" role="status"><Spinner size={16} /> Loading users...</div>;
  } else if (users.isError) {
    body = (
      <div className="page-body page-body-center admin-message is-error" role="alert">
        <strong>{ADMIN_MESSAGES.loadError}</strong>
        <span>{errorMessage(users.error, ADMIN_MESSAGES.loadFailed)}</span>
        <Button size="sm" onClick={() => void users.refetch()}>Retry</Button>
      </div>
    );
  } else {
    body = (
      <AdminTable
        rows={rows}
        total={first?.total ?? 0}
        columns={columns}
        onPreviewColumns={preview}
        onSaveColumns={save}
        sort={sort}
        onSort={onSort}
        loadingMore={users.isFetchingNextPage}
        onNeedMore={() => {
          if (users.hasNextPage && !users.isFetchingNextPage) void users.fetchNextPage();
        }}
      />
    );
  }

  return (
    <div className="page admin-page">
      <PageHeader title="User Management" count={first?.total} />
      <div className="admin-kpis">
        {KPI_CARDS.map(({ key, label }) => (
          <div key={key} className="admin-kpi" aria-label={label}>
            <span className="admin-kpi-label">{label}</span>
            <span className="admin-kpi-value">{first ? first.kpis[key].toLocaleString('en-US') : '–'}</span>
          </div>
        ))}
      </div>
      <div className="admin-toolbar">
        <div className="admin-search">
          <Search size={14} className="admin-search-icon" aria-hidden="true" />
          <input className="input" type="search" aria-label="Search users" placeholder="Search users..." value={searchInput}
            onChange={(event) => setSearchInput(event.target.value)} />
        </div>
        <label className="admin-toggle">
          <Switch label="Hide Demo Users" checked={hideDemoUsers} onChange={(event) => setHideDemoUsers(event.target.checked)} />
          <span aria-hidden="true">Hide Demo Users</span>
        </label>
        {users.isFetching && !users.isPending && <Spinner size={14} />}
      </div>
      {body}
    </div>
  );
}
