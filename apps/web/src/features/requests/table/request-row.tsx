import type { CompactItem } from '@spyglass/protocol';
import { Trash2 } from 'lucide-react';
import { memo, useRef, type MouseEvent } from 'react';
import type { NewRowTracker } from '../list/new-row-tracker';
import type { ColumnLayout } from './columns';
import { cellFits } from './cell-fit';
import { itemCell } from './item-cells';
import { useRowArrival } from './row-arrival';

export interface RequestRowProps {
  newRows: NewRowTracker;
  /** The row's item: rows are kept per item, so items arriving above re-render none of them. */
  item: CompactItem;
  selected: boolean;
  layout: ColumnLayout;
  /** The delete action, given to the hovered row of a device view. */
  onDelete?: (id: string) => void;
}

/**
 * The cells of an item. Rows shift index whenever items arrive above them; the cells only
 * re-render when the item itself (or the columns) changed.
 */
const RowCells = memo(function RowCells({ item, layout }: { item: CompactItem; layout: ColumnLayout }) {
  return layout.columns.map((column, i) => (
    <div
      key={column.id}
      role="gridcell"
      className={`req-td req-td-${column.id}${column.align === 'end' ? ' is-end' : ''}${cellFits(item, column.id, layout.widths[i]!) ? ' is-fit' : ''}`}
    >
      {itemCell(item, column.id)}
    </div>
  ));
});

/**
 * One row of the table. Memoised on its item and selection, so a live batch re-renders only the
 * rows whose item or selection changed, not the rows it pushes down (measured at 1M rows and 1,000
 * items/s: re-rendering every shown row each frame was the table's largest cost after layout). The
 * row's position is therefore not in the row (no aria-rowindex). The table, which renders every
 * frame anyway, hands both in: a store subscription per row (two, before) cost a subscribe, an
 * unsubscribe and passive effects for each of the ~17 rows a frame mounts and removes at the top.
 */
export const RequestRow = memo(function RequestRow({ newRows, item, selected, layout, onDelete }: RequestRowProps) {
  const ref = useRef<HTMLDivElement>(null);
  useRowArrival(ref, item.id, newRows);

  const remove = (event: MouseEvent) => {
    // The row's click would select it first.
    event.stopPropagation();
    onDelete?.(item.id);
  };

  return (
    <div
      ref={ref}
      className={selected ? 'req-row is-selected' : 'req-row'}
      role="row"
      aria-selected={selected}
      data-item-id={item.id}
      data-type={item.type}
    >
      <RowCells item={item} layout={layout} />
      {onDelete && (
        <button type="button" className="req-row-delete" aria-label={`Delete request ${item.num}`} title="Delete" onClick={remove}>
          <Trash2 size={13} aria-hidden="true" />
        </button>
      )}
    </div>
  );
});
