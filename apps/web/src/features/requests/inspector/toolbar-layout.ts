import type { RefObject } from 'react';
import { useInnerWidthAs } from '../../../ui/use-inner-width';

/**
 * How the toolbar arranges itself in the width it has: `wide` shows the filter labels, `compact`
 * shows the filters as icons, `stacked` also puts the search bar on a row of its own.
 */
export type ToolbarLayout = 'wide' | 'compact' | 'stacked';

/*
 * Measured in Chromium with the device list's toolbar (the widest: view toggle, columns, chart,
 * clear, save session): the labelled filters take 450 px, the search bar's buttons 100, the
 * actions 185; with paddings and gaps a 260 px search field needs 1040 px. The icon filters take
 * 210 px, so the 160 px minimum field still fits in 720 px (1280 px with both sidebars open
 * leaves 740); below that the field gets the whole width of a second row.
 */
export const COMPACT_BELOW_PX = 1040;
export const STACKED_BELOW_PX = 720;

export function toolbarLayout(width: number): ToolbarLayout {
  if (width < STACKED_BELOW_PX) return 'stacked';
  if (width < COMPACT_BELOW_PX) return 'compact';
  return 'wide';
}

/**
 * The layout for the toolbar's current width, measured before paint so the wide one never flashes.
 * The toolbar has no side borders and never scrolls, so its inner width is the width measured above.
 */
export function useToolbarLayout(toolbar: RefObject<HTMLElement | null>): ToolbarLayout {
  return useInnerWidthAs(toolbar, toolbarLayout);
}
