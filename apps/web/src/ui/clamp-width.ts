/** A panel width within its limits, in whole pixels (the settings schema stores integers). */
export const clampWidth = (width: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, width)));
