import { describe, expect, it } from 'vitest';
import { fitColumnWidths } from './fit-columns';

const flexible = (...widths: number[]) => widths.map((width) => ({ width, flexible: true }));

describe('fitColumnWidths', () => {
  it('keeps the widths when they fit', () => {
    expect(fitColumnWidths(flexible(100, 200), 300, 60)).toEqual([100, 200]);
  });

  it('shrinks the flexible columns in proportion, none under the minimum', () => {
    expect(fitColumnWidths(flexible(60, 200, 200), 260, 60)).toEqual([60, 100, 100]);
    const fitted = fitColumnWidths(flexible(60, 100, 300), 300, 60);
    expect(fitted[0]).toBe(60);
    expect(fitted[1]).toBe(60);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeLessThanOrEqual(300);
  });

  it('never changes a column the user sized', () => {
    expect(fitColumnWidths([{ width: 250, flexible: false }, ...flexible(200, 200)], 450, 60)).toEqual([250, 100, 100]);
    expect(fitColumnWidths([{ width: 500, flexible: false }, { width: 100, flexible: false }], 300, 60)).toEqual([500, 100]);
  });

  it('squeezes nothing when the columns could not fit even at the minimum: the table scrolls with readable columns', () => {
    expect(fitColumnWidths(flexible(60, 200, 150, 250), 200, 60)).toEqual([60, 200, 150, 250]);
    expect(fitColumnWidths([{ width: 400, flexible: false }, ...flexible(200, 200)], 500, 60)).toEqual([400, 200, 200]);
    // Just enough room for the minimums: they are used.
    expect(fitColumnWidths(flexible(60, 200, 150, 250), 240, 60)).toEqual([60, 60, 60, 60]);
  });
});
