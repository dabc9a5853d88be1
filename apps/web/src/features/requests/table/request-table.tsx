import * as ContextMenu from '@radix-ui/react-context-menu';
import type { CompactItem, ItemSort } from '@spyglass/protocol';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode, type Ref } from 'react';
import { VirtualRows, type VirtualRowsHandle, type VirtualRowsScroll } from '../list/virtual-rows';
import type { RequestList } from '../store/request-list';
import { useSelectionVersion, useStoreVersion } from '../store/use-list-store';
import { columnWidthVars, layoutColumns, type TableColumn, type TableColumnId } from './columns';
import { RequestRow } from './request-row';
import { TableHeader } from './table-header';

export interface RequestTableProps {
  list: RequestList;
  count: number;
  columns: readonly TableColumn[];
  onPreviewColumns(columns: TableColumn[]): void;
  onSaveColumns(columns: TableColumn[]): void;
  sort: ItemSort;
  onSort(column: TableColumnId): void;
  /** A click on a row (modifier keys decide between select, toggle and range). */
  onRowClick(index: number, event: MouseEvent): void;
  /** A click below the rows: spec 001 §4 clears the selection and closes the details. */
  onEmptyClick(): void;
  /** The hover delete action; absent where rows may not be deleted. */
  onDelete?: (id: string) => void;
  /** The entries of the row menu for a right click on `item` (already selected by then). */
  rowMenu(item: CompactItem): ReactNode;
  /** Shown over the rows (no results, loading). */
  children?: ReactNode;
  ref?: Ref<VirtualRowsHandle>;
}

/** Spec 001 §9: resize observer debounce 50 ms. */
const RESIZE_DEBOUNCE_MS = 50;

/** The width of an element, followed as it changes (debounced). */
function useWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  useLayoutEffect(() => {
    if (!element) return;
    setWidth(element.clientWidth);
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setWidth(element.clientWidth), RESIZE_DEBOUNCE_MS);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [element]);
  return [setElement, width];
}

/**
 * The captured-item table (spec 001 'Request list screen'): the header, then the virtual rows of
 * the store's view; newest first by default. Right click on a row opens its menu.
 */
export function RequestTable({
  list, count, columns, onPreviewColumns, onSaveColumns, sort, onSort, onRowClick, onEmptyClick, onDelete, rowMenu, children, ref,
}: RequestTableProps) {
  const { store, history, newRows } = list;
  // Rows are kept per item and get their item and selection from here: any change of the view
  // (order, filter, items) or of the selection renders the table, and the rows whose own item or
  // selection changed.
  useStoreVersion(store);
  useSelectionVersion(store);
  const [measure, width] = useWidth();
  const rowsRef = useRef<VirtualRowsHandle | null>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const [menuItem, setMenuItem] = useState<CompactItem | null>(null);
  /** The row under the pointer: only it carries the delete action (one button, not one per row). */
  const [hoveredId, setHoveredId] = useState<string | null>(null);

  const layout = useMemo(() => layoutColumns(columns, width), [columns, width]);
  const widthVars = useMemo(() => columnWidthVars(layout), [layout]);

  const setRowsRef = useCallback((handle: VirtualRowsHandle | null) => {
    rowsRef.current = handle;
    if (typeof ref === 'function') ref(handle);
    else if (ref) ref.current = handle;
  }, [ref]);

  // The header follows the rows' horizontal scroll.
  const headLeft = useRef(0);
  const followHeader = useCallback((scroll: VirtualRowsScroll) => {
    if (!headRef.current || scroll.left === headLeft.current) return;
    headLeft.current = scroll.left;
    headRef.current.style.transform = `translateX(${-scroll.left}px)`;
  }, []);

  const renderRow = useCallback((index: number) => {
    const item = store.rowAt(index);
    if (item === undefined) return null;
    return (
      <RequestRow
        newRows={newRows}
        item={item}
        selected={store.isSelectedAt(index)}
        layout={layout}
        onDelete={item.id === hoveredId ? onDelete : undefined}
      />
    );
  }, [store, newRows, layout, onDelete, hoveredId]);

  function onMouseOver(event: MouseEvent) {
    if (!onDelete) return;
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-item-id]') : null;
    const id = row?.dataset.itemId ?? null;
    if (id !== hoveredId) setHoveredId(id);
  }

  /** The row index of the row under an event, or -1 (rows carry their item id: indexes shift as items arrive). */
  function rowIndexOf(target: EventTarget): number {
    const row = target instanceof Element ? target.closest<HTMLElement>('[data-item-id]') : null;
    return row?.dataset.itemId ? store.indexOfId(row.dataset.itemId) : -1;
  }

  function onClick(event: MouseEvent) {
    const index = rowIndexOf(event.target);
    if (index >= 0) onRowClick(index, event);
    else if (event.target instanceof Element && !event.target.closest('button')) onEmptyClick();
  }

  function onContextMenu(event: MouseEvent) {
    const index = rowIndexOf(event.target);
    const item = index >= 0 ? store.rowAt(index) : undefined;
    if (!item) {
      // No row under the pointer: no menu.
      event.preventDefault();
      return;
    }
    // The menu acts on the selection: a right click outside it selects that row alone.
    if (!store.isSelectedAt(index)) store.selectOnly(index);
    setMenuItem(item);
  }

  return (
    <div className="req-table" role="grid" aria-label="Requests" aria-multiselectable="true" aria-rowcount={count + 1} ref={measure} style={widthVars}>
      <TableHeader
        ref={headRef}
        columns={columns}
        layout={layout}
        sort={sort}
        onSort={onSort}
        onPreviewColumns={onPreviewColumns}
        onSaveColumns={onSaveColumns}
      />
      <ContextMenu.Root onOpenChange={(open) => { if (!open) setMenuItem(null); }}>
        <ContextMenu.Trigger asChild>
          <div className="req-table-body" onClick={onClick} onContextMenu={onContextMenu} onMouseOver={onMouseOver} onMouseLeave={() => setHoveredId(null)}>
            <VirtualRows
              ref={setRowsRef}
              className="req-table-rows"
              ariaLabel="Request rows"
              count={count}
              rowKey={(index) => store.rowAt(index)?.id ?? index}
              indexOfKey={(key) => store.indexOfId(String(key))}
              onRangeChange={(range) => history.onRangeChange(range, store.count, store.isDescending)}
              onScroll={followHeader}
              renderRow={renderRow}
            >
              {children}
            </VirtualRows>
          </div>
        </ContextMenu.Trigger>
        <ContextMenu.Portal>
          {menuItem && <ContextMenu.Content className="menu" aria-label="Request actions">{rowMenu(menuItem)}</ContextMenu.Content>}
        </ContextMenu.Portal>
      </ContextMenu.Root>
    </div>
  );
}
