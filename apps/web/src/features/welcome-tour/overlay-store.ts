import { useSyncExternalStore } from 'react';
import { overlayTransition, startOverlay, type OverlayAction, type OverlayState } from './overlay-machine';
import { OVERLAY_STEPS, type TourPanel } from './overlay-steps';
import type { TourId } from './welcome-tour.api';

/** The one guided overlay of the tab: which tour, which step (null: closed). */
export interface GuidedTour extends OverlayState {
  tourId: TourId;
}

let current: GuidedTour | null = null;
const listeners = new Set<() => void>();

function set(next: GuidedTour | null): void {
  current = next;
  listeners.forEach((listener) => listener());
}

export function startGuidedTour(tourId: TourId): void {
  const state = startOverlay(OVERLAY_STEPS[tourId].length);
  set(state && { tourId, ...state });
}

export function moveGuidedTour(action: OverlayAction): void {
  if (!current) return;
  const next = overlayTransition(current, action);
  set(next && { tourId: current.tourId, ...next });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useGuidedTour(): GuidedTour | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** The open tour's step, as `tourId/step`, when it shows the whole request list (`showsWholeList`); otherwise null. */
export function wholeListStep(tour: GuidedTour | null): string | null {
  return tour && OVERLAY_STEPS[tour.tourId][tour.step - 1]?.showsWholeList ? `${tour.tourId}/${tour.step}` : null;
}

/** Per part of the page, the tour's state (so its step) at which the user hid it again. */
const hiddenAt: Partial<Record<TourPanel, GuidedTour>> = {};

/**
 * Whether the open tour's step shows this part of the page over the user's own state
 * (`showsPanel`). The user hiding it during the step holds for that step only: every
 * move of the tour makes a new state, so going on, back, or starting over shows it again.
 */
export function tourShowsPanel(panel: TourPanel): boolean {
  return current !== null && OVERLAY_STEPS[current.tourId][current.step - 1]?.showsPanel === panel && hiddenAt[panel] !== current;
}

/** The user hides the part of the page the tour showed, for the current step. */
export function hideTourPanel(panel: TourPanel): void {
  if (!current || !tourShowsPanel(panel)) return;
  hiddenAt[panel] = current;
  listeners.forEach((listener) => listener());
}

export function useTourShowsPanel(panel: TourPanel): boolean {
  return useSyncExternalStore(subscribe, () => tourShowsPanel(panel));
}
