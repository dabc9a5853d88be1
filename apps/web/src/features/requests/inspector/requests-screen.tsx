import { DEFAULT_ITEM_SORT, isInFlight, toggleSort, type CompactItem, type ItemSort } from '@spyglass/protocol';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../../lib/api';
import { useSettings } from '../../../lib/settings';
import { reportTourEvent } from '../../../lib/tour-events';
import { BarChart } from '../chart/bar-chart';
import { ConsoleView } from '../console/console-view';
import { DetailsPanel } from '../details/details-panel';
import { copyAsCurl } from '../export/copy-as-curl';
import { ExportModal } from '../export/export-modal';
import { oneAtATime } from '../export/stream-export';
import { exportedItems } from '../export/exported-items';
import type { VirtualRowsHandle } from '../list/virtual-rows';
import { SearchBar } from '../search/search-bar';
import { useListFilter } from '../search/use-list-filter';
import { useSearch } from '../search/use-search';
import { useRecomputing, useRowCount, useSelectionCount, useSingleSelected, useTotalCount } from '../store/use-list-store';
import { ColumnMenuButton } from '../table/column-menu';
import type { TableColumnId } from '../table/columns';
import { ItemFlashesContext, NO_ITEM_FLASHES } from '../table/item-flashes';
import { RequestTable } from '../table/request-table';
import { storeOrder } from '../table/table-sort';
import { LiveTimersContext } from '../table/waiting-timer';
import { canDeleteItems } from './inspector-mode';
import { LoadFailed, LoadingRequests, NoDevice, NoRequestsYet, NoSearchResults } from './inspector-states';
import { InspectorToolbar } from './inspector-toolbar';
import { clearDeviceItems, deleteItems } from '../requests.api';
import type { ListShortcut } from './list-shortcuts';
import type { RequestsScreenProps } from './requests-screen-props';
import { RowMenu } from './row-menu';
import { StatsBar } from './stats-bar';
import { useInspectorSettings } from './use-inspector-settings';
import { useListKeys } from './use-list-keys';
import { useTourShowsPanel } from '../../welcome-tour/overlay-store';
import { useTourWholeList } from './use-tour-whole-list';
import { ViewToggle } from './view-toggle';
import './inspector.css';
import '../table/request-table.css';

export type { RequestsScreenProps } from './requests-screen-props';

/**
 * The request list screen (spec 001 'Request list screen'): toolbar with filters and search, the
 * bar chart, the table or the console, the details of the selected item and the stats bar, with
 * the selection and keys of spec 001 §4 and §5. Works on any `RequestList`: a device's live one
 * or a saved session's.
 */
export function RequestsScreen({ list, device, mode, toolbarExtra, loadItem, loadItems: givenLoadItems, mocking: givenMocking }: RequestsScreenProps) {
  const { store, history } = list;
  const settings = useInspectorSettings(mode);
  const { showDetails, activeFilter: savedActiveFilter } = useSettings();
  const search = useSearch();
  const filtering = useListFilter(store, settings.activeFilter, search.state);
  useTourWholeList({
    enabled: mode === 'device',
    savedCategory: savedActiveFilter,
    showCategory: settings.showActiveFilter,
    search,
    filtering,
  });
  const filtered = settings.activeFilter !== 'all' || search.state.tags.length > 0;
  useEffect(() => {
    if (filtered) reportTourEvent('filterUsed');
  }, [filtered]);
  const count = useRowCount(store);
  const held = useTotalCount(store);
  const total = useSyncExternalStore(list.total.subscribe, () => list.total.value);
  const selected = useSelectionCount(store);
  const single = useSingleSelected(store);
  const recomputing = useRecomputing(store);
  const historyState = useSyncExternalStore(history.subscribe, () => history.state);
  const tableRef = useRef<VirtualRowsHandle>(null);

  const [sort, setSort] = useState<ItemSort>(DEFAULT_ITEM_SORT);
  /** Spec 001 §4: a plain click opens the details (when the panel is shown), Escape closes them. */
  const [detailsOpen, setDetailsOpen] = useState(true);
  const [chartOpen, setChartOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const isTable = settings.viewMode === 'table';

  // The table's order; the console puts createdAt back while it is shown (console-order.ts).
  useEffect(() => {
    if (!isTable) return;
    const order = storeOrder(sort);
    store.setOrder(order.compare, order.descending);
  }, [store, sort, isTable]);

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

  const clearAll = useCallback(async () => {
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
  }, [deviceId, store, history]);

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

  const sortBy = useCallback((column: TableColumnId) => setSort((current) => toggleSort(current, column)), []);
  const openDetails = useCallback(() => setDetailsOpen(true), []);
  const closeDetails = useCallback(() => setDetailsOpen(false), []);

  useListKeys(mode, (shortcut: ListShortcut) => {
    switch (shortcut.type) {
      case 'move': {
        // The console reads the store from its end when the store is newest first.
        const delta = !isTable && store.isDescending ? -shortcut.delta : shortcut.delta;
        const index = store.moveSelection(delta);
        if (index < 0) return false;
        if (isTable) tableRef.current?.scrollToIndex(index);
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
    search.dispatch({ type: 'clear' });
    if (search.state.dateRange.enabled) search.dispatch({ type: 'toggleDateRange' });
    settings.setActiveFilter('all');
  }

  const loadItems = useMemo(() => givenLoadItems ?? oneAtATime(loadItem), [givenLoadItems, loadItem]);
  const copyCurl = useCallback((item: CompactItem) => void copyAsCurl(loadItem(item.id)), [loadItem]);
  /** Mocking belongs to a live device (spec 001 §6: session views hide the mock controls). */
  const mocking = mode === 'device' && deviceId !== null ? givenMocking : undefined;
  const saveAsMockRoute = useCallback((item: CompactItem) => {
    if (!mocking) return;
    loadItem(item.id)
      .then((full) => mocking.saveAsMockRoute(full))
      .catch((error: unknown) => toast.error(errorMessage(error, 'Failed to load request')));
  }, [loadItem, mocking]);

  // The parts that do not depend on the rows are kept across live batches: only the table and
  // the stats bar re-render as items arrive.
  const searchController = useMemo(() => ({ state: search.state, dispatch: search.dispatch }), [search.state, search.dispatch]);
  const toggleChart = useCallback(() => setChartOpen((open) => !open), []);
  const onClear = useMemo(() => (canDelete ? () => void clearAll() : undefined), [canDelete, clearAll]);
  const { activeFilter, setActiveFilter, viewMode, setViewMode, columns, saveColumns } = settings;
  const toolbar = useMemo(() => (
    <InspectorToolbar
      activeFilter={activeFilter}
      onFilter={setActiveFilter}
      search={<SearchBar search={searchController} store={store} />}
      viewControls={(
        <>
          <ViewToggle value={viewMode} onChange={setViewMode} />
          {viewMode === 'table' && <ColumnMenuButton columns={columns} onSaveColumns={saveColumns} />}
        </>
      )}
      chartOpen={chartOpen}
      onToggleChart={toggleChart}
      onClear={onClear}
      extra={toolbarExtra}
    />
  ), [activeFilter, setActiveFilter, searchController, store, viewMode, setViewMode, columns, saveColumns, chartOpen, toggleChart, onClear, toolbarExtra]);

  const onBinClick = useCallback((index: number) => {
    if (isTable) tableRef.current?.scrollToIndex(index, 'start');
  }, [isTable]);
  const chart = useMemo(() => (chartOpen ? <BarChart store={store} onBinClick={onBinClick} /> : null), [chartOpen, store, onBinClick]);

  // The guided tour's steps about the mock editor show the details panel a user hid (spec 001
  // 'Welcome tour': the overlay highlights the step's target); nothing is saved.
  const tourShowsDetails = useTourShowsPanel('details');
  const detailsId = (showDetails || tourShowsDetails) && detailsOpen ? single?.id : undefined;
  const detailsInFlight = single !== undefined && isInFlight(single);
  const detailsDeviceId = deviceId ?? list.deviceId;
  const details = useMemo(() => (detailsId === undefined ? null : (
    <DetailsPanel
      itemId={detailsId}
      inFlight={detailsInFlight}
      deviceId={detailsDeviceId}
      mode={mode}
      loadItem={loadItem}
      onClose={closeDetails}
      mockSection={mocking?.section}
    />
  )), [detailsId, detailsInFlight, detailsDeviceId, mode, loadItem, closeDetails, mocking]);

  const exportItems = useCallback(() => exportedItems(store), [store]);
  const openExport = useCallback(() => setExportOpen(true), []);
  const exportModal = useMemo(
    () => <ExportModal open={exportOpen} onOpenChange={setExportOpen} items={exportItems} loadItems={loadItems} />,
    [exportOpen, exportItems, loadItems],
  );

  if (mode === 'device' && !device) return <section className="inspector"><NoDevice /></section>;

  const noResults = count === 0 && !recomputing && filtering;
  let body;
  if (held === 0) {
    if (historyState.status === 'error') body = <LoadFailed message={errorMessage(historyState.error, 'Failed to load requests')} />;
    else if (historyState.initial) body = <LoadingRequests />;
    else body = <NoRequestsYet device={mode === 'device' ? device : undefined} />;
  } else if (isTable) {
    body = (
      <RequestTable
        ref={tableRef}
        list={list}
        count={count}
        columns={settings.columns}
        onPreviewColumns={settings.previewColumns}
        onSaveColumns={settings.saveColumns}
        sort={sort}
        onSort={sortBy}
        onRowClick={onRowClick}
        onEmptyClick={onEmptyClick}
        onDelete={canDelete ? deleteOne : undefined}
        rowMenu={(item) => (
          <RowMenu
            item={item}
            selectedCount={store.selectionCount}
            onExport={openExport}
            onCopyAsCurl={copyCurl}
            onSaveAsMockRoute={mocking ? saveAsMockRoute : undefined}
            onDelete={canDelete ? deleteSelected : undefined}
          />
        )}
      >
        {noResults && <div className="inspector-overlay"><NoSearchResults onClear={clearSearch} /></div>}
      </RequestTable>
    );
  } else {
    body = (
      <>
        <ConsoleView list={list} mode={mode} onOpenItem={openDetails} />
        {noResults && <div className="inspector-overlay"><NoSearchResults onClear={clearSearch} /></div>}
      </>
    );
  }

  return (
    <section className="inspector" aria-label="Requests">
      {toolbar}
      {chart}
      <div className="inspector-content">
        <div className="inspector-main">
          <ItemFlashesContext value={mocking?.flashes ?? NO_ITEM_FLASHES}>
            <LiveTimersContext value={mode === 'device'}>{body}</LiveTimersContext>
          </ItemFlashesContext>
        </div>
        {details}
      </div>
      <StatsBar
        count={count}
        total={total}
        selected={selected}
        busy={recomputing || historyState.status === 'loading'}
        onExport={openExport}
      />
      {exportModal}
    </section>
  );
}
