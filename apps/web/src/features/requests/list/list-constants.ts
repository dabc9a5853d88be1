/** Spec 001 §9: row height 30 px; virtual list overscan 20; new-row animation 400 ms, offset 30 px. */
export const ROW_HEIGHT = 30;
export const OVERSCAN = 20;
export const NEW_ROW_ANIMATION = { durationMs: 400, offsetPx: 30 } as const;
