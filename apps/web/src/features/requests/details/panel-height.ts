/** Spec 001 §4 and §9: the details panel is 100 px to 80 % of the content area high. */
export const DETAILS_MIN_HEIGHT = 100;
export const DETAILS_MAX_SHARE = 0.8;
/** Spec 001 §9: resize observer debounce. */
export const AREA_RESIZE_DEBOUNCE_MS = 50;
/** Height before the user has chosen one. */
export const DETAILS_DEFAULT_HEIGHT = 360;

export function maxDetailsHeight(areaHeight: number): number {
  return Math.max(DETAILS_MIN_HEIGHT, Math.floor(areaHeight * DETAILS_MAX_SHARE));
}

export function clampDetailsHeight(height: number, areaHeight: number): number {
  return Math.round(Math.min(maxDetailsHeight(areaHeight), Math.max(DETAILS_MIN_HEIGHT, height)));
}

/** The height shown: the maximum while expanded, else the stored height within the limits of today's area. */
export function shownDetailsHeight(stored: number, expanded: boolean, areaHeight: number): number {
  return expanded ? maxDetailsHeight(areaHeight) : clampDetailsHeight(stored, areaHeight);
}
