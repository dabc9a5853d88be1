import { describe, expect, it } from 'vitest';
import { clampDetailsHeight, DETAILS_MIN_HEIGHT, maxDetailsHeight, shownDetailsHeight } from './panel-height';

describe('details panel height (spec 001 §4, §9: 100 px to 80 % of the content area)', () => {
  it('allows 80 % of the area at most, and never less than the minimum', () => {
    expect(DETAILS_MIN_HEIGHT).toBe(100);
    expect(maxDetailsHeight(1000)).toBe(800);
    expect(maxDetailsHeight(801)).toBe(640);
    expect(maxDetailsHeight(50)).toBe(100);
  });

  it('keeps a dragged or stored height within the limits', () => {
    expect(clampDetailsHeight(20, 1000)).toBe(100);
    expect(clampDetailsHeight(350.6, 1000)).toBe(351);
    expect(clampDetailsHeight(5000, 1000)).toBe(800);
  });

  it('expand switches to the maximum, collapse back to the stored height', () => {
    expect(shownDetailsHeight(300, true, 1000)).toBe(800);
    expect(shownDetailsHeight(300, false, 1000)).toBe(300);
    // A stored height from a taller window shrinks with the area.
    expect(shownDetailsHeight(700, false, 500)).toBe(400);
  });
});
