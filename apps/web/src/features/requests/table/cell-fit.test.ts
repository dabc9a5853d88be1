import { describe, expect, it } from 'vitest';
import { logItem, networkItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { cellFits, type CellFonts, type Measure } from './cell-fit';

/** A font whose every character is `px` wide, but for the digit 8, drawn 1 px wider. */
const font = (px: number): Measure => (text) => [...text].reduce((w, c) => w + (c === '8' ? px + 1 : px), 0);
const fonts: CellFonts = { sans: font(6), mono: font(7), monoBold: font(8), level: font(6) };

describe('cellFits', () => {
  it('counts a number as its digits at the widest digit, against the width less padding and slack', () => {
    // 60 px column: 42 px of room; 6 digits at 7 px (the 8's width) fit, 7 do not.
    expect(cellFits(networkItem({ num: 111_111 }), 'id', 60, fonts)).toBe(true);
    expect(cellFits(networkItem({ num: 1_000_000 }), 'id', 60, fonts)).toBe(false);
    expect(cellFits(networkItem({ num: 1_000_000 }), 'id', 67, fonts)).toBe(true);
  });

  it('measures the time, the type with its icon and the level with its pill padding', () => {
    const item = logItem({ level: 'Warning', message: 'short' });
    // HH:MM:SS.mmm: 9 digits counted at the widest (8 px) and 3 separators at 7 px.
    expect(cellFits(item, 'createdAt', 72 + 21 + 18, fonts)).toBe(true);
    expect(cellFits(item, 'createdAt', 72 + 21 + 17, fonts)).toBe(false);
    // 'log' at 6 px after the 17 px icon and gap.
    expect(cellFits(item, 'type', 17 + 18 + 18, fonts)).toBe(true);
    expect(cellFits(item, 'type', 17 + 18 + 17, fonts)).toBe(false);
    // 'warning' (7 characters, drawn lowercase) in a 12 px padded pill.
    expect(cellFits(item, 'level', 12 + 42 + 18, fonts)).toBe(true);
    expect(cellFits(item, 'level', 12 + 42 + 17, fonts)).toBe(false);
  });

  it('keeps the clip of network details, mocked rows and requests still waiting', () => {
    expect(cellFits(networkItem({ url: 'https://a.example/x' }), 'details', 2000, fonts)).toBe(false);
    expect(cellFits({ ...logItem({ message: 'm' }), isMocked: true }, 'details', 2000, fonts)).toBe(false);
    expect(cellFits(logItem({ message: 'm' }), 'details', 2000, fonts)).toBe(true);
  });

  it('bounds a message by its length, 1.1 em a character, printable ASCII only', () => {
    // 10 characters at 12 px x 1.1 = 132 px.
    expect(cellFits(logItem({ message: 'x'.repeat(10) }), 'details', 132 + 18, fonts)).toBe(true);
    expect(cellFits(logItem({ message: 'x'.repeat(10) }), 'details', 132 + 17, fonts)).toBe(false);
    expect(cellFits(logItem({ message: 'caf\u00e9' }), 'details', 2000, fonts)).toBe(false);
    expect(cellFits(logItem({ message: 'a\tb' }), 'details', 2000, fonts)).toBe(false);
  });

  it('keeps the clip of a request still waiting (its timer grows)', () => {
    expect(cellFits(networkItem({ status: null, duration: null }), 'duration', 2000, fonts)).toBe(false);
    expect(cellFits(networkItem({ status: 200, duration: 12 }), 'duration', 2000, fonts)).toBe(true);
  });

  it('fits nothing without a way to measure (no canvas, as in jsdom)', () => {
    expect(cellFits(logItem({ level: 'info' }), 'level', 2000, null)).toBe(false);
    const unmeasured: CellFonts = { sans: () => Number.NaN, mono: () => Number.NaN, monoBold: () => Number.NaN, level: () => Number.NaN };
    expect(cellFits(logItem({ level: 'info' }), 'level', 2000, unmeasured)).toBe(false);
  });
});
