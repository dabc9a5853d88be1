import * as ContextMenu from '@radix-ui/react-context-menu';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ADMIN_LIST, percentageUsed, type AdminSortKey, type AdminUserRow } from '@spyglass/protocol';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Check, ExternalLink, Lock, MoreHorizontal } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { IconButton } from '../../ui/button';
import { ResizeHandle } from '../../ui/resize-handle';
import { SortableHeader } from '../../ui/sortable-header';
import { Spinner } from '../../ui/spinner';
import { useInnerWidth } from '../../ui/use-inner-width';
import {
  ADMIN_COLUMN_MAX_WIDTH, ADMIN_COLUMN_MIN_WIDTH, adminCellText, adminCellTitle, customerPageUrl, defaultAdminColumns, fitAdminColumns,
  setAdminColumnVisible, setAdminColumnWidth, usageLevel, type AdminColumn, type AdminColumnId,
} from './admin-columns';
import { useAdminUserUpdate } from './admin.api';

const ROW_HEIGHT = 34;
/** The actions' 28 px button with 4 px either side. */
const ACTIONS_WIDTH = 36;
/** Load the next page when the rendered rows come this close to the end of what is loaded. */
const LOAD_AHEAD_ROWS = ADMIN_LIST.overscan;

export interface AdminTableProps {
  rows: AdminUserRow[];
  total: number;
  columns: AdminColumn[];
  /** While a column is dragged: on screen only. */
  onPreviewColumns(columns: AdminColumn[]): void;
  /** A finished resize, a shown or hidden column: saved in the profile. */
  onSaveColumns(columns: AdminColumn[]): void;
  sort: { column: AdminSortKey; order: 'asc' | 'desc' };
  onSort(column: AdminSortKey): void;
  loadingMore: boolean;
  onNeedMore(): void;
}

/**
 * The admin list (spec 000 §2.7): sort by header, resizable columns, a right-click menu to hide
 * or show them, and virtual rows (pool 40 before the first measure, overscan 20).
 */
export function AdminTable({ rows, total, columns, onPreviewColumns, onSaveColumns, sort, onSort, loadingMore, onNeedMore }: AdminTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const visible = columns.filter((c) => c.isVisible);
  // Fitted to the box's inner width (clientWidth: its scroll bar left out), so that the list does not scroll sideways at 1440 px.
  const widths = fitAdminColumns(visible, useInnerWidth(scroller) - ACTIONS_WIDTH, sort.column);
  const template = `${widths.map((w) => `${w}px`).join(' ')} ${ACTIONS_WIDTH}px`;
  const width = widths.reduce((sum, w) => sum + w, 0) + ACTIONS_WIDTH;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: ADMIN_LIST.overscan,
    initialRect: { width: 0, height: ADMIN_LIST.pool * ROW_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (rows.length < total && lastIndex >= rows.length - LOAD_AHEAD_ROWS) onNeedMore();
  }, [lastIndex, rows.length, total, onNeedMore]);

  return (
    <div ref={scroller} className="admin-table-scroll">
      <div className="admin-table" role="grid" aria-label="Users" aria-rowcount={total + 1} style={{ width, minWidth: '100%' }}>
        <ContextMenu.Root>
          <ContextMenu.Trigger asChild>
            <div className="admin-thead" role="row" style={{ gridTemplateColumns: template }}>
              {visible.map((column, i) => (
                <HeaderCell key={column.id} column={column} width={widths[i]!} sort={sort} onSort={onSort}
                  onResize={(w) => onPreviewColumns(setAdminColumnWidth(columns, column.id, w))}
                  onCommit={(w) => onSaveColumns(setAdminColumnWidth(columns, column.id, w))} />
              ))}
              <div role="columnheader" className="admin-th" aria-label="Actions" />
            </div>
          </ContextMenu.Trigger>
          <ContextMenu.Portal>
            <ContextMenu.Content className="menu" aria-label="Columns">
              <ContextMenu.Label className="menu-label">Columns</ContextMenu.Label>
              {columns.map((column) => (
                <ContextMenu.CheckboxItem key={column.id} className="menu-item" checked={column.isVisible}
                  onCheckedChange={(checked) => onSaveColumns(setAdminColumnVisible(columns, column.id, checked))}
                  onSelect={(event) => event.preventDefault()}>
                  <span className="menu-check"><ContextMenu.ItemIndicator><Check size={13} aria-hidden="true" /></ContextMenu.ItemIndicator></span>
                  {column.label}
                </ContextMenu.CheckboxItem>
              ))}
              <ContextMenu.Separator className="menu-separator" />
              <ContextMenu.Item className="menu-item" onSelect={() => onSaveColumns(defaultAdminColumns())}>
                <span className="menu-check" />Reset columns
              </ContextMenu.Item>
            </ContextMenu.Content>
          </ContextMenu.Portal>
        </ContextMenu.Root>
        {rows.length === 0 ? (
          <div className="admin-empty">No users found</div>
        ) : (
          <div className="admin-tbody" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const user = rows[item.index]!;
              return (
                <div key={user.id} role="row" aria-rowindex={item.index + 2} className={`admin-row${user.isLockedUser ? ' is-locked' : ''}`}
                  data-user-id={user.id}
                  style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                  {visible.map((column) => <Cell key={column.id} user={user} column={column} />)}
                  <div role="gridcell" className="admin-td is-actions"><RowActions user={user} /></div>
                </div>
              );
            })}
          </div>
        )}
        {loadingMore && <div className="admin-loading-more" role="status"><Spinner size={14} /> Loading more...</div>}
      </div>
    </div>
  );
}

function HeaderCell({ column, width, sort, onSort, onResize, onCommit }: {
  column: AdminColumn;
  /** As drawn (fitted to the box). */
  width: number;
  sort: AdminTableProps['sort'];
  onSort(column: AdminSortKey): void;
  onResize(width: number): void;
  onCommit(width: number): void;
}) {
  const sortable = column.id !== 'customer';
  return (
    <SortableHeader label={column.label} sorted={sort.column === column.id ? sort.order : null}
      onSort={sortable ? () => onSort(column.id as AdminSortKey) : undefined} buttonClassName="admin-th-button" textClassName="admin-th-text"
      buttonProps={{ title: column.label }}
      className={`admin-th${column.align === 'end' ? ' is-end' : ''}`} data-column={column.id}>
      <ResizeHandle edge="right" label={`Resize column ${column.label}`} size={width} min={ADMIN_COLUMN_MIN_WIDTH} max={ADMIN_COLUMN_MAX_WIDTH}
        onResize={onResize} onCommit={onCommit} />
    </SortableHeader>
  );
}

function Cell({ user, column }: { user: AdminUserRow; column: AdminColumn }) {
  const className = `admin-td${column.align === 'end' ? ' is-end' : ''}`;
  const id: AdminColumnId = column.id;
  if (id === 'customer') {
    const customerId = user.subscription.customerId;
    return (
      <div role="gridcell" className={className}>
        {customerId && (
          // 'Open' under the Customer header: the column stays as narrow as its header.
          <a className="admin-link" href={customerPageUrl(customerId)} target="_blank" rel="noopener noreferrer" title={customerId}
            aria-label={`Customer ${customerId}`}>
            Open <ExternalLink size={11} aria-hidden="true" />
          </a>
        )}
      </div>
    );
  }
  if (id === 'percentageUsed') {
    const level = usageLevel(percentageUsed(user.subscription.trafficUsed, user.subscription.trafficLimit));
    return <div role="gridcell" className={`${className} usage-${level}`} data-usage={level}>{adminCellText(user, id)}</div>;
  }
  if (id === 'email') {
    return (
      <div role="gridcell" className={className} title={user.email}>
        {user.isLockedUser && <Lock size={12} className="admin-locked-icon" aria-label="Locked" />}
        <span className="admin-cell-text">{user.email}</span>
        {/* No 'free' badge: the Plan column says free (spec 000 §2.7 lists no badge). A demo user is shown only here. */}
        {user.isDemoUser && <span className="admin-badge">demo</span>}
      </div>
    );
  }
  if (id === 'status' && user.isLockedUser) {
    // A locked account cannot use its subscription, whatever the payment provider says of it.
    return (
      <div role="gridcell" className={className}>
        <span className="admin-pill is-locked" title={`Account locked; subscription ${adminCellText(user, id)}`}>locked</span>
      </div>
    );
  }
  if (id === 'plan' || id === 'status') {
    return <div role="gridcell" className={className}><span className={`admin-pill is-${adminCellText(user, id)}`}>{adminCellText(user, id)}</span></div>;
  }
  const text = adminCellText(user, id);
  return <div role="gridcell" className={className}><span className="admin-cell-text" title={adminCellTitle(user, id) || undefined}>{text}</span></div>;
}

function RowActions({ user }: { user: AdminUserRow }) {
  const update = useAdminUserUpdate();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <IconButton label={`Actions for ${user.email}`}><MoreHorizontal size={14} aria-hidden="true" /></IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item className="menu-item" onSelect={() => update.mutate({ id: user.id, patch: { isLockedUser: !user.isLockedUser } })}>
            <span className="menu-check" />{user.isLockedUser ? 'Unlock user' : 'Lock user'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => update.mutate({ id: user.id, patch: { isFreeUser: !user.isFreeUser } })}>
            <span className="menu-check" />{user.isFreeUser ? 'Remove free user' : 'Mark as free user'}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
