import * as ContextMenu from '@radix-ui/react-context-menu';
import { COLUMN_MIN_WIDTH, type ItemSort } from '@spyglass/protocol';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { memo, useState, type DragEvent, type Ref } from 'react';
import { ResizeHandle } from '../../../ui/resize-handle';
import { SortableHeader } from '../../../ui/sortable-header';
import {
  COLUMN_MAX_WIDTH, gridTemplate, moveColumnBy, moveColumnTo, setColumnWidth,
  type ColumnLayout, type TableColumn, type TableColumnId,
} from './columns';
import { ColumnVisibilityItems } from './column-menu';

export interface TableHeaderProps {
  columns: readonly TableColumn[];
  layout: ColumnLayout;
  sort: ItemSort;
  onSort(column: TableColumnId): void;
  onPreviewColumns(columns: TableColumn[]): void;
  onSaveColumns(columns: TableColumn[]): void;
  ref?: Ref<HTMLDivElement>;
}

const DRAG_TYPE = 'application/x-spyglass-column';

/**
 * The table's header: a click sorts (spec 001 §4), the right edge resizes (min 60), a drag
 * reorders, and a right click opens the column menu (visibility, order). Memoised: live batches
 * re-render the table, not its header.
 */
export const TableHeader = memo(function TableHeader({ columns, layout, sort, onSort, onPreviewColumns, onSaveColumns, ref }: TableHeaderProps) {
  /** The column the menu was opened on (for Move left / Move right). */
  const [menuColumn, setMenuColumn] = useState<TableColumnId | null>(null);
  const [dropTarget, setDropTarget] = useState<TableColumnId | null>(null);
  const last = layout.columns.length - 1;

  function onDrop(event: DragEvent, target: TableColumnId) {
    const id = event.dataTransfer.getData(DRAG_TYPE) as TableColumnId;
    setDropTarget(null);
    if (id && id !== target) onSaveColumns(moveColumnTo(columns, id, target));
  }

  return (
    <ContextMenu.Root onOpenChange={(open) => { if (!open) setMenuColumn(null); }}>
      <ContextMenu.Trigger asChild>
        <div className="req-table-head-viewport">
          <div ref={ref} className="req-table-head" role="row" style={{ gridTemplateColumns: gridTemplate(layout), width: layout.total }}>
            {layout.columns.map((column, i) => {
              return (
                <SortableHeader
                  key={column.id}
                  label={column.label}
                  sorted={sort.column === column.id ? sort.direction : null}
                  onSort={() => onSort(column.id)}
                  buttonClassName="req-th-button"
                  textClassName="req-cell-text"
                  className={`req-th${column.align === 'end' ? ' is-end' : ''}${dropTarget === column.id ? ' is-drop-target' : ''}`}
                  data-column={column.id}
                  onContextMenu={() => setMenuColumn(column.id)}
                  // Only the label drags (to reorder): a drag from the resize handle must resize.
                  buttonProps={{
                    draggable: true,
                    onDragStart: (event) => {
                      event.dataTransfer.setData(DRAG_TYPE, column.id);
                      event.dataTransfer.effectAllowed = 'move';
                    },
                    onDragOver: (event) => {
                      if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
                      event.preventDefault();
                      setDropTarget(column.id);
                    },
                    onDragLeave: () => setDropTarget((current) => (current === column.id ? null : current)),
                    onDrop: (event) => onDrop(event, column.id),
                  }}
                >
                  {i < last && (
                    <ResizeHandle
                      edge="right"
                      label={`Resize column ${column.label}`}
                      size={column.width}
                      min={COLUMN_MIN_WIDTH}
                      max={COLUMN_MAX_WIDTH}
                      onResize={(width) => onPreviewColumns(setColumnWidth(columns, column.id, width))}
                      onCommit={(width) => onSaveColumns(setColumnWidth(columns, column.id, width))}
                    />
                  )}
                </SortableHeader>
              );
            })}
          </div>
        </div>
      </ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu" aria-label="Columns">
          <ContextMenu.Label className="menu-label">Columns</ContextMenu.Label>
          <ColumnVisibilityItems kind="context" columns={columns} onSaveColumns={onSaveColumns} />
          {menuColumn && (
            <>
              <ContextMenu.Separator className="menu-separator" />
              <ContextMenu.Item
                className="menu-item"
                disabled={layout.columns[0]?.id === menuColumn}
                onSelect={() => onSaveColumns(moveColumnBy(columns, menuColumn, -1))}
              >
                <span className="menu-check"><ChevronLeft size={13} aria-hidden="true" /></span>Move left
              </ContextMenu.Item>
              <ContextMenu.Item
                className="menu-item"
                disabled={layout.columns[last]?.id === menuColumn}
                onSelect={() => onSaveColumns(moveColumnBy(columns, menuColumn, 1))}
              >
                <span className="menu-check"><ChevronRight size={13} aria-hidden="true" /></span>Move right
              </ContextMenu.Item>
            </>
          )}
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
});
