/**
 * The guided overlay's transitions (spec 001 §4): it starts at step 1, Previous only above 1,
 * Next past the last step stops, Finish or exit (close, Escape) stops. `step` is 1-based.
 */
export interface OverlayState {
  step: number;
  total: number;
}

export type OverlayAction = 'next' | 'previous' | 'finish' | 'exit';

export const startOverlay = (total: number): OverlayState | null => (total > 0 ? { step: 1, total } : null);

export function overlayTransition(state: OverlayState, action: OverlayAction): OverlayState | null {
  switch (action) {
    case 'next':
      return state.step >= state.total ? null : { ...state, step: state.step + 1 };
    case 'previous':
      return state.step > 1 ? { ...state, step: state.step - 1 } : state;
    case 'finish':
    case 'exit':
      return null;
  }
}

export const canGoBack = (state: OverlayState): boolean => state.step > 1;
export const isLastStep = (state: OverlayState): boolean => state.step === state.total;

export type OverlayPosition = 'top' | 'bottom' | 'left' | 'right';

export interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * The highlight drawn around a target: `padding` of room on every side, cut to the viewport less
 * `margin` where the target reaches the window's edge (the request list touches the right edge,
 * and the 2 px ring drawn outside the box must show too). Null when nothing of the target is on
 * screen: the page is then dimmed whole.
 */
export function highlightBox(target: Rect, viewport: { width: number; height: number }, padding: number, margin: number): Rect | null {
  const left = Math.max(target.left - padding, margin);
  const top = Math.max(target.top - padding, margin);
  const right = Math.min(target.left + target.width + padding, viewport.width - margin);
  const bottom = Math.min(target.top + target.height + padding, viewport.height - margin);
  return right > left && bottom > top ? { top, left, width: right - left, height: bottom - top } : null;
}

/** The side tried after the asked one: its opposite, then the other two. */
const FALLBACK_SIDES: Record<OverlayPosition, OverlayPosition[]> = {
  bottom: ['top', 'right', 'left'],
  top: ['bottom', 'right', 'left'],
  right: ['left', 'bottom', 'top'],
  left: ['right', 'bottom', 'top'],
};

/**
 * Where the instruction card goes beside the highlighted target (default bottom), kept inside
 * the viewport; without a target it is centred. A side without room for the card gives way to
 * the next one that has it (a sidebar button's card, asked on its right, goes below it on a phone,
 * where the drawer leaves no room to its right): pushed back inside the window, it would cover the
 * target. Where no side has room (a list filling the window), the asked side stands.
 */
export function cardPlacement(target: Rect | null, card: { width: number; height: number }, viewport: { width: number; height: number }, position: OverlayPosition = 'bottom', gap = 12): { top: number; left: number } {
  const edge = 8;
  const clamp = (value: number, max: number) => Math.max(edge, Math.min(value, max - edge));
  if (!target) return { top: clamp((viewport.height - card.height) / 2, viewport.height - card.height), left: clamp((viewport.width - card.width) / 2, viewport.width - card.width) };
  const beside = (side: OverlayPosition): { top: number; left: number } => {
    switch (side) {
      case 'top':
        return { top: target.top - card.height - gap, left: target.left + target.width / 2 - card.width / 2 };
      case 'left':
        return { top: target.top + target.height / 2 - card.height / 2, left: target.left - card.width - gap };
      case 'right':
        return { top: target.top + target.height / 2 - card.height / 2, left: target.left + target.width + gap };
      default:
        return { top: target.top + target.height + gap, left: target.left + target.width / 2 - card.width / 2 };
    }
  };
  // Only the side's own axis counts: along the target, clamping slides the card without covering it.
  const fits = (side: OverlayPosition, at: { top: number; left: number }): boolean => {
    switch (side) {
      case 'top':
        return at.top >= edge;
      case 'left':
        return at.left >= edge;
      case 'right':
        return at.left + card.width <= viewport.width - edge;
      default:
        return at.top + card.height <= viewport.height - edge;
    }
  };
  const side = [position, ...FALLBACK_SIDES[position]].find((s) => fits(s, beside(s))) ?? position;
  const at = beside(side);
  return { top: clamp(at.top, viewport.height - card.height), left: clamp(at.left, viewport.width - card.width) };
}
