import type { ItemCategory, SearchState } from '@spyglass/protocol';
import { useEffect, useEffectEvent, useRef } from 'react';
import { useGuidedTour, wholeListStep } from '../../welcome-tour/overlay-store';
import type { ScreenSearch } from '../search/use-search';

export interface TourWholeListOptions {
  /** Only a device's live list: the tour's steps are on the device dashboard. */
  enabled: boolean;
  /** The filter bar's category saved in the settings (the one on screen changes only through `showCategory`). */
  savedCategory: ItemCategory;
  showCategory(category: ItemCategory): void;
  search: ScreenSearch;
  /** A category, tag or date range hides items now. */
  filtering: boolean;
}

/**
 * The guided tour's steps that talk about the request list (an item arriving in it, a row to
 * open: `showsWholeList`) show the whole list: on entering such a step a filter is set aside,
 * on screen only (the saved category stays, so closing the tab loses nothing). When the tour
 * ends the filter comes back, unless the user filtered again meanwhile (the basic tour's last
 * step asks for it): theirs then stays.
 */
export function useTourWholeList({ enabled, savedCategory, showCategory, search, filtering }: TourWholeListOptions): void {
  const tour = useGuidedTour();
  const open = enabled && tour !== null;
  const step = enabled ? wholeListStep(tour) : null;
  /** The search before the tour first cleared the list; the category is the saved one. */
  const setAside = useRef<SearchState | null>(null);

  const showWholeList = useEffectEvent(() => {
    if (!filtering) return;
    setAside.current ??= search.state;
    showCategory('all');
    search.dispatch({ type: 'clear' });
    if (search.state.dateRange.enabled) search.dispatch({ type: 'toggleDateRange' });
  });
  useEffect(() => {
    if (step !== null) showWholeList();
  }, [step]);

  const handBack = useEffectEvent(() => {
    const saved = setAside.current;
    setAside.current = null;
    if (saved === null || filtering) return;
    showCategory(savedCategory);
    search.restore(saved);
  });
  useEffect(() => {
    if (!open) handBack();
  }, [open]);
}
