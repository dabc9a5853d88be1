import { describe, expect, it } from 'vitest';
import { canGoBack, cardPlacement, highlightBox, isLastStep, overlayTransition, startOverlay } from './overlay-machine';

describe('guided overlay transitions (spec 001 §4)', () => {
  it('starts at step 1 and offers Previous only above 1', () => {
    const first = startOverlay(5)!;
    expect(first).toEqual({ step: 1, total: 5 });
    expect(canGoBack(first)).toBe(false);
    expect(overlayTransition(first, 'previous')).toEqual(first);
    const second = overlayTransition(first, 'next')!;
    expect(second.step).toBe(2);
    expect(canGoBack(second)).toBe(true);
    expect(overlayTransition(second, 'previous')).toEqual(first);
  });

  it('stops on Next past the last step, on Finish and on exit', () => {
    let state = startOverlay(3)!;
    state = overlayTransition(overlayTransition(state, 'next')!, 'next')!;
    expect(isLastStep(state)).toBe(true);
    expect(overlayTransition(state, 'next')).toBeNull();
    expect(overlayTransition(state, 'finish')).toBeNull();
    expect(overlayTransition(startOverlay(3)!, 'exit')).toBeNull();
    expect(startOverlay(0)).toBeNull();
  });

  it('places the card below the target by default, on the asked side otherwise, inside the viewport', () => {
    const viewport = { width: 1000, height: 800 };
    const card = { width: 200, height: 100 };
    const target = { top: 300, left: 400, width: 200, height: 50 };
    expect(cardPlacement(target, card, viewport)).toEqual({ top: 362, left: 400 });
    expect(cardPlacement(target, card, viewport, 'top')).toEqual({ top: 188, left: 400 });
    expect(cardPlacement(target, card, viewport, 'right')).toEqual({ top: 275, left: 612 });
    expect(cardPlacement(target, card, viewport, 'left')).toEqual({ top: 275, left: 188 });
    // Slid along the target to stay inside the window.
    expect(cardPlacement({ top: 300, left: 950, width: 40, height: 40 }, card, viewport)).toEqual({ top: 352, left: 792 });
    expect(cardPlacement(null, card, viewport)).toEqual({ top: 350, left: 400 });
  });

  it('moves the card to a side with room rather than over the target', () => {
    const viewport = { width: 1000, height: 800 };
    const card = { width: 200, height: 100 };
    // No room above: below. No room below: above.
    expect(cardPlacement({ top: 100, left: 400, width: 200, height: 50 }, card, viewport, 'top')).toEqual({ top: 162, left: 400 });
    expect(cardPlacement({ top: 750, left: 950, width: 40, height: 40 }, card, viewport)).toEqual({ top: 638, left: 792 });
    // A phone's drawer button (390 px window, 280 px drawer), its card asked on the right: below it.
    const phone = { width: 390, height: 844 };
    const button = { top: 400, left: 8, width: 264, height: 32 };
    expect(cardPlacement(button, { width: 320, height: 140 }, phone, 'right')).toEqual({ top: 444, left: 8 });
    // Near the bottom too: above it.
    expect(cardPlacement({ ...button, top: 760 }, { width: 320, height: 140 }, phone, 'right')).toEqual({ top: 608, left: 8 });
    // A list filling the window leaves no side with room: the asked side, inside the window.
    expect(cardPlacement({ top: 50, left: 0, width: 390, height: 794 }, { width: 320, height: 140 }, phone)).toEqual({ top: 696, left: 35 });
  });

  it('draws the highlight with room around the target, cut to the window less a margin where the target reaches its edge', () => {
    const viewport = { width: 1440, height: 900 };
    expect(highlightBox({ top: 100, left: 400, width: 200, height: 50 }, viewport, 6, 2)).toEqual({ top: 94, left: 394, width: 212, height: 62 });
    // A sidebar button 8 px from the left edge keeps its 6 px of room.
    expect(highlightBox({ top: 400, left: 8, width: 190, height: 30 }, viewport, 6, 2)).toEqual({ top: 394, left: 2, width: 202, height: 42 });
    // The request list, flush with the right and bottom edges (it ran 6 px past the right one).
    expect(highlightBox({ top: 84, left: 220, width: 1220, height: 816 }, viewport, 6, 2)).toEqual({ top: 78, left: 214, width: 1224, height: 820 });
    // Reaching past the top-left corner (a list scrolled under the header).
    expect(highlightBox({ top: -40, left: 0, width: 390, height: 300 }, { width: 390, height: 844 }, 6, 2)).toEqual({ top: 2, left: 2, width: 386, height: 264 });
    // Nothing of it on screen: no highlight.
    expect(highlightBox({ top: 100, left: 1500, width: 200, height: 50 }, viewport, 6, 2)).toBeNull();
  });
});
