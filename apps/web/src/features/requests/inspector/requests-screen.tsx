import { DEFAULT_ITEM_SORT, toggleSort, type ItemSort } from '@spyglass/protocol';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../../lib/api';
import type { VirtualRowsHandle } from '../list/virtual-rows';
import { useRecomputing, useRowCount, useSelectionCount, useTotalCount } from '../store/use-item-store';
import { ColumnMenuButton } from '../table/column-menu';
import type { TableColumnId } from '../table/columns';
import { RequestTable } from '../table/request-table';
import { storeOrder } from '../table/table-sort';
import { InspectorToolbar } from './inspector-toolbar';
import { LoadFailed, LoadingRequests, NoDevice, NoRequestsYet, NoSearchResults } from './inspector-states';
import { canDeleteItems } from './inspector-mode';
import { clearDeviceItems, deleteItems } from './items-api';
import type { ListShortcut } from './list-shortcuts';
import type { RequestsScreenProps } from './requests-screen-props';
import { RowMenu } from './row-menu';
import { StatsBar } from './stats-bar';
import { useCategoryFilter } from './use-category-filter';
import { useInspectorSettings } from './use-inspector-settings';
import { useListKeys } from './use-list-keys';
import './inspector.css';
import '../table/request-table.css';

export type { RequestsScreenProps } from './requests-screen-props';

/**
 * The request list screen (spec 001 'Request list screen'): toolbar, the table of the list's
 * items, the details of the selected one and the stats bar, with the selection and keys of
 * spec 001 §4 and §5. Works on any `RequestList`: a device's live one or a saved session's.
 */
export function RequestsScreen({ list, device, mode, toolbarExtra }: RequestsScreenProps) {
  const { store, history } = list;
  const settings = useInspectorSettings(mode);
  const count = useRowCount(store);
  const total = useTotalCount(store);
  const selected = useSelectionCount(store);
  const recomputing = useRecomputing(store);
  const historyState = useSyncExternalStore(history.subscribe, () => history.state);
  const tableRef = useRef<VirtualRowsHandle>(null);

  const [sort, setSort] = useState<ItemSort>(DEFAULT_ITEM_SORT);
  /** Spec 001 §4: a plain click opens the details (when the panel is shown), Escape closes them. */
  const [detailsOpen, setDetailsOpen] = useState(true);

  useEffect(() => {
    const order = storeOrder(sort);
    store.setOrder(order.compare, order.descending);
  }, [store, sort]);
  useCategoryFilter(store, settings.activeFilter);

  const deviceId = device?.id ?? null;
  const canDelete = canDeleteItems(mode) && deviceId !== null;

  const removeItems = useCallback((ids: readonly string[]) => {
    if (ids.length === 0) return;
    store.deleteIds(ids);
    history.noteDeleted(ids);
    // Spec 001 §8: delete failures are logged only.
    deleteItems(ids).catch((error: unknown) => console.error('Failed to delete requests', error));
  }, [store, history]);

  const deleteSelected = useCallback(() => removeItems(store.selectedItems().map((item) => item.id)), [store, removeItems]);
  const deleteOne = useCallback((id: string) => removeItems([id]), [removeItems]);

  async function clearAll() {
    if (deviceId === null) return;
    if (store.totalCount === 0) {
      toast.warning('No requests to clear');
      return;
    }
    try {
      await clearDeviceItems(deviceId);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to clear requests'));
      return;
    }
    store.clear();
    history.noteCleared();
    toast.success('Requests cleared');
  }

  function onRowClick(index: number, event: MouseEvent) {
    if (event.shiftKey) {
      store.selectRangeTo(index);
    } else if (event.ctrlKey || event.metaKey) {
      store.toggleAt(index);
    } else {
      store.selectOnly(index);
      setDetailsOpen(true);
    }
  }

  const onEmptyClick = useCallback(() => {
    store.clearSelection();
    setDetailsOpen(false);
  }, [store]);

  useListKeys(mode, (shortcut: ListShortcut) => {
    switch (shortcut.type) {
      case 'move': {
        const index = store.moveSelection(shortcut.delta);
        if (index < 0) return false;
        tableRef.current?.scrollToIndex(index);
        return true;
      }
      case 'selectAll':
        if (store.count === 0) return false;
        store.selectAll();
        return true;
      case 'closeDetails':
        if (!detailsOpen || store.singleSelected === undefined) return false;
        setDetailsOpen(false);
        return true;
      case 'deleteSelected':
        if (!canDelete || store.selectionCount === 0) return false;
        deleteSelected();
        return true;
    }
  });

  function clearSearch() {
    settings.setActiveFilter('all');
  }

  if (mode === 'device' && !device) return <section className="inspector"><NoDevice /></section>;

  let body;
  if (total === 0) {
    if (historyState.status === 'error') body = <LoadFailed message={errorMessage(historyState.error, 'Failed to load requests')} />;
    else if (historyState.initial) body = <LoadingRequests />;
    else body = <NoRequestsYet device={mode === 'device' ? device : undefined} />;
  } else {
    body = (
      <RequestTable
        ref={tableRef}
        list={list}
        count={count}
        columns={settings.columns}
        onPreviewColumns={settings.previewColumns}
        onSaveColumns={settings.saveColumns}
        sort={sort}
        onSort={(column: TableColumnId) => setSort((current) => toggleSort(current, column))}
        onRowClick={onRowClick}
        onEmptyClick={onEmptyClick}
        onDelete={canDelete ? deleteOne : undefined}
        rowMenu={(item) => (
          <RowMenu item={item} selectedCount={store.selectionCount} onDelete={canDelete ? deleteSelected : undefined} />
        )}
      >
        {count === 0 && !recomputing && <div className="inspector-overlay"><NoSearchResults onClear={clearSearch} /></div>}
      </RequestTable>
    );
  }

  return (
    <section className="inspector" aria-label="Requests">
      <InspectorToolbar
        activeFilter={settings.activeFilter}
        onFilter={settings.setActiveFilter}
        viewControls={<ColumnMenuButton columns={settings.columns} onSaveColumns={settings.saveColumns} />}
        chartOpen={false}
        onClear={canDelete ? () => void clearAll() : undefined}
        extra={toolbarExtra}
      />
      <div className="inspector-main">{body}</div>
      <StatsBar count={count} total={total} selected={selected} busy={recomputing || historyState.status === 'loading'} />
    </section>
  );
}
