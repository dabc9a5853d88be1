import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX, offsetForRow, rowRange, ScaledScroll } from './scaled-scroll';

const ROW = 30;
const ROWS = 1_000_000;
const VIEWPORT = 900;

function millionRows(): ScaledScroll {
  const scroll = new ScaledScroll();
  scroll.resize(ROWS * ROW, VIEWPORT);
  return scroll;
}

/** First row at the viewport's top, without overscan. */
const topRow = (scroll: ScaledScroll) => rowRange(scroll.virtualOffset, VIEWPORT, ROWS, ROW, 0).start;

describe('ScaledScroll at 1,000,000 rows', () => {
  it('caps the scroll content and scales the native range onto the list', () => {
    const scroll = millionRows();
    expect(scroll.isScaled).toBe(true);
    expect(scroll.physicalSize).toBe(MAX_SCROLL_PX);
    expect(scroll.ratio).toBeCloseTo((ROWS * ROW - VIEWPORT) / (MAX_SCROLL_PX - VIEWPORT), 9);
  });

  it('round-trips every row index through the rounded native position', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: ROWS - VIEWPORT / ROW }), fc.constantFrom(Math.round, Math.floor, Math.ceil), (index, browserRounding) => {
      const scroll = millionRows();
      const physical = scroll.scrollTo(index * ROW);
      // The browser reports the position it could set (whole or device pixels).
      scroll.onScroll(browserRounding(physical));
      expect(scroll.virtualOffset).toBe(index * ROW);
      expect(topRow(scroll)).toBe(index);
    }), { numRuns: 2000 });
  });

  it('maps scrollbar jumps linearly and reaches both ends', () => {
    const scroll = millionRows();
    const maxPhysical = scroll.physicalSize - VIEWPORT;
    expect(scroll.onScroll(maxPhysical)).toBe(ROWS * ROW - VIEWPORT);
    expect(rowRange(scroll.virtualOffset, VIEWPORT, ROWS, ROW, 20).end).toBe(ROWS);
    expect(scroll.onScroll(0)).toBe(0);
    let previous = -1;
    for (let physical = 0; physical <= maxPhysical; physical += 99_991) {
      const virtual = scroll.onScroll(physical);
      expect(virtual).toBeGreaterThan(previous);
      // ...and back: the native position for that offset is the one that was reported.
      expect(millionRows().scrollTo(virtual)).toBeCloseTo(physical, 6);
      previous = virtual;
    }
  });

  it('moves by exact pixel steps for wheel and keys, whatever the scale', () => {
    const scroll = millionRows();
    scroll.scrollTo(12_345_678);
    for (let i = 1; i <= 200; i++) {
      scroll.onScroll(Math.round(scroll.scrollBy(53)));
      expect(scroll.virtualOffset).toBe(12_345_678 + 53 * i);
    }
    scroll.onScroll(Math.round(scroll.scrollBy(-1e12)));
    expect(scroll.virtualOffset).toBe(0);
  });

  it('places rows relative to the native position so they are exact near the viewport', () => {
    const scroll = millionRows();
    const physical = Math.round(scroll.scrollTo(500_000 * ROW + 7));
    scroll.onScroll(physical);
    expect(scroll.toContent(500_000 * ROW, physical)).toBe(physical - 7);
    expect(scroll.toContent(500_001 * ROW, physical)).toBe(physical - 7 + ROW);
  });
});

describe('ScaledScroll below the cap', () => {
  it('is the identity', () => {
    const scroll = new ScaledScroll();
    scroll.resize(1000 * ROW, VIEWPORT);
    expect(scroll.isScaled).toBe(false);
    expect(scroll.ratio).toBe(1);
    expect(scroll.physicalSize).toBe(1000 * ROW);
    expect(scroll.onScroll(4321)).toBe(4321);
    expect(scroll.scrollTo(1234)).toBe(1234);
    expect(scroll.onScroll(1e9)).toBe(1000 * ROW - VIEWPORT);
  });
});

describe('rowRange and offsetForRow', () => {
  it('covers the viewport plus the overscan, within the list', () => {
    expect(rowRange(0, 900, 1000, 30, 20)).toEqual({ start: 0, end: 50 });
    expect(rowRange(15 * 30 + 10, 900, 1000, 30, 20)).toEqual({ start: 0, end: 66 });
    expect(rowRange(990 * 30, 900, 1000, 30, 20)).toEqual({ start: 970, end: 1000 });
    expect(rowRange(0, 900, 0, 30, 20)).toEqual({ start: 0, end: 0 });
  });

  it('scrolls only as far as needed to show a row', () => {
    expect(offsetForRow(10, 0, 900, 30)).toBe(0);
    expect(offsetForRow(40, 0, 900, 30)).toBe(41 * 30 - 900);
    expect(offsetForRow(5, 600, 900, 30)).toBe(150);
    expect(offsetForRow(100, 0, 900, 30, 'start')).toBe(3000);
    expect(offsetForRow(100, 0, 900, 30, 'center')).toBe(3000 - 435);
  });
});
