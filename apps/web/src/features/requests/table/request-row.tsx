import { Trash2 } from 'lucide-react';
import { memo, useRef, type MouseEvent } from 'react';
import type { NewRowTracker } from '../list/new-row-animation';
import type { ItemStore } from '../store/item-store';
import { useRow, useRowSelected } from '../store/use-item-store';
import { useNewRowAnimation } from '../list/new-row-animation';
import type { ColumnLayout } from './columns';
import { ItemCell } from './item-cells';

export interface RequestRowProps {
  store: ItemStore;
  newRows: NewRowTracker;
  index: number;
  layout: ColumnLayout;
  template: string;
  /** Shows the hover delete action (device views only). */
  onDelete?: (id: string) => void;
}

/**
 * One row of the table. It reads its own item and selection from the store, so a live batch
 * re-renders only the rows whose item changed.
 */
export const RequestRow = memo(function RequestRow({ store, newRows, index, layout, template, onDelete }: RequestRowProps) {
  const item = useRow(store, index);
  const selected = useRowSelected(store, index);
  const ref = useRef<HTMLDivElement>(null);
  useNewRowAnimation(ref, item?.id ?? '', newRows);
  if (!item) return null;

  const remove = (event: MouseEvent) => {
    // The row's click would select it first.
    event.stopPropagation();
    onDelete?.(item.id);
  };

  return (
    <div
      ref={ref}
      className={`req-row${selected ? ' is-selected' : ''}${index % 2 === 1 ? ' is-odd' : ''}`}
      role="row"
      aria-selected={selected}
      aria-rowindex={index + 2}
      data-row-index={index}
      data-item-id={item.id}
      data-type={item.type}
      style={{ gridTemplateColumns: template, width: layout.total }}
    >
      {layout.columns.map((column) => (
        <div key={column.id} role="gridcell" className={`req-td req-td-${column.id}${column.align === 'end' ? ' is-end' : ''}`}>
          <ItemCell item={item} column={column.id} />
        </div>
      ))}
      {onDelete && (
        <button type="button" className="req-row-delete" aria-label={`Delete request ${item.num}`} title="Delete" onClick={remove}>
          <Trash2 size={13} aria-hidden="true" />
        </button>
      )}
    </div>
  );
});
