import { useSyncExternalStore } from 'react';
import { overlayTransition, startOverlay, type OverlayAction, type OverlayState } from './overlay-machine';
import { OVERLAY_STEPS } from './overlay-steps';
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

const sidebarStep = (): GuidedTour | null => (current && OVERLAY_STEPS[current.tourId][current.step - 1]?.inSidebar ? current : null);

/**
 * The open tour while its step points at something in the navigation sidebar (`inSidebar`),
 * otherwise null. Every move of the tour gives a new object: one held from before tells the step
 * it was taken at apart from the one now shown, even the same step visited again.
 */
export function useTourSidebarStep(): GuidedTour | null {
  return useSyncExternalStore(subscribe, sidebarStep);
}
