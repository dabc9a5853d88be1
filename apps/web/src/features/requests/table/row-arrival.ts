import { useLayoutEffect, type RefObject } from 'react';
import { NEW_ROW_ANIMATION } from '../list/list-constants';
import type { NewRowTracker } from '../list/new-row-tracker';

/**
 * At most this many arrival animations run at once: about a screenful of rows. Measured in
 * Chromium with 1,000,000 rows receiving 1,000 items/s, one animation per arriving row (~400
 * running at a time) took frames from 17 ms to 400+ ms (the animations' own objects and layers),
 * while rows arriving that fast leave the screen before their 400 ms are over anyway.
 */
export const MAX_RUNNING_ARRIVALS = 12;

const KEYFRAMES: Keyframe[] = [
  { transform: `translateY(-${NEW_ROW_ANIMATION.offsetPx}px)`, opacity: 0 },
  { transform: 'none', opacity: 1 },
];

/** Asked once: a query per arriving row cost as much as its animation (bench 41). */
let reducedMotion: MediaQueryList | undefined;
const prefersReducedMotion = () => (reducedMotion ??= window.matchMedia?.('(prefers-reduced-motion: reduce)'))?.matches === true;

/** Animations running now, over all tables of the page. */
let running = 0;

/** Whether another arrival may animate now (and counts it when it may). */
export function reserveArrival(limit = MAX_RUNNING_ARRIVALS): boolean {
  if (running >= limit) return false;
  running++;
  return true;
}

export function releaseArrival(): void {
  running = Math.max(0, running - 1);
}

/**
 * Spec 001 §4 and §9: a newly arrived row slides in from 30 px above over 400 ms when it first
 * mounts (rows mounted by scrolling do not), within the budget above.
 */
export function useRowArrival(ref: RefObject<HTMLElement | null>, id: string, tracker: NewRowTracker): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !tracker.take(id)) return;
    if (prefersReducedMotion() || !reserveArrival()) return;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      releaseArrival();
    };
    const animation = element.animate(KEYFRAMES, { duration: NEW_ROW_ANIMATION.durationMs, easing: 'ease-out' });
    animation.addEventListener('finish', release);
    animation.addEventListener('cancel', release);
    return () => {
      animation.cancel();
      release();
    };
  }, [ref, id, tracker]);
}
