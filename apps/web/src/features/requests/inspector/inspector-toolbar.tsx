import type { ItemCategory } from '@spyglass/protocol';
import { ChartColumn, Eraser } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { IconButton } from '../../../ui/button';
import { FilterBar } from './filter-bar';
import { useToolbarLayout } from './toolbar-layout';

export interface InspectorToolbarProps {
  activeFilter: ItemCategory;
  onFilter(category: ItemCategory): void;
  /** Table / console toggle and the column menu, when available. */
  viewControls?: ReactNode;
  chartOpen: boolean;
  /** The bar chart toggle, when the chart is available. */
  onToggleChart?: () => void;
  /** Absent where the list may not be cleared (sessions, the public view). */
  onClear?: () => void;
  /** The sessions issue's Save Session button. */
  extra?: ReactNode;
  /** The search bar, between the filters and the actions. */
  search?: ReactNode;
}

/**
 * Spec 001 'Request list screen': filter bar, view toggles, save session, clear requests, bar chart.
 * One row at any desktop width (the filters turn to icons when the labels do not fit beside the
 * search); narrower, the search bar takes a second row of its own.
 */
export function InspectorToolbar({ activeFilter, onFilter, viewControls, chartOpen, onToggleChart, onClear, extra, search }: InspectorToolbarProps) {
  const ref = useRef<HTMLDivElement>(null);
  const layout = useToolbarLayout(ref);
  return (
    <div ref={ref} className="inspector-toolbar" data-layout={layout} role="toolbar" aria-label="Requests toolbar">
      <FilterBar value={activeFilter} onChange={onFilter} iconOnly={layout !== 'wide'} />
      {search && <div className="inspector-search">{search}</div>}
      <div className="inspector-toolbar-actions">
        {viewControls}
        <span className="inspector-toolbar-divider" aria-hidden="true" />
        {onToggleChart && (
          <IconButton label={chartOpen ? 'Hide bar chart' : 'Show bar chart'} pressed={chartOpen} onClick={onToggleChart}>
            <ChartColumn size={15} aria-hidden="true" />
          </IconButton>
        )}
        {onClear && (
          <IconButton label="Clear requests" onClick={onClear}>
            <Eraser size={15} aria-hidden="true" />
          </IconButton>
        )}
        {extra}
      </div>
    </div>
  );
}
