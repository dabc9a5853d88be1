import { ArrowDown, ArrowUp } from 'lucide-react';
import type { ButtonHTMLAttributes, HTMLAttributes, ReactNode } from 'react';

export interface SortableHeaderProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** A table's `th` (scope col), or a grid's `div` with the columnheader role. */
  as?: 'th' | 'div';
  label: string;
  /** This column's direction when the list is sorted by it, else null. */
  sorted: 'asc' | 'desc' | null;
  /** Sorts by this column; without it the label is no button (a column the list cannot sort by). */
  onSort?(): void;
  /** Each table's own look of the label's button and of its text (ellipsized). */
  buttonClassName: string;
  textClassName: string;
  /** More for the label's button: a title, or the request table's column dragging. */
  buttonProps?: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className' | 'onClick'>;
  /** After the label: the column's resize handle. */
  children?: ReactNode;
}

/**
 * A column header whose label sorts the list, with the arrow of the direction it is sorted in.
 * The direction is told by aria-sort, so the arrow is hidden from assistive technology.
 */
export function SortableHeader({ as = 'div', label, sorted, onSort, buttonClassName, textClassName, buttonProps, children, ...cell }: SortableHeaderProps) {
  const ariaSort = sorted === null ? 'none' : sorted === 'asc' ? 'ascending' : 'descending';
  const text = <span className={textClassName}>{label}</span>;
  const content = (
    <>
      {onSort ? (
        <button type="button" className={buttonClassName} onClick={onSort} {...buttonProps}>
          {text}
          {sorted === 'asc' && <ArrowUp size={12} aria-hidden="true" />}
          {sorted === 'desc' && <ArrowDown size={12} aria-hidden="true" />}
        </button>
      ) : <span className={buttonClassName}>{text}</span>}
      {children}
    </>
  );
  return as === 'th'
    ? <th scope="col" aria-sort={ariaSort} {...cell}>{content}</th>
    : <div role="columnheader" aria-sort={ariaSort} {...cell}>{content}</div>;
}
