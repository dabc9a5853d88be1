import { describe, expect, it } from 'vitest';
import { countTicks, timeTicks, usageBars } from './usage-chart';

const NOW = Date.parse('2026-03-10T15:20:00Z');

describe('usageBars', () => {
  it('shows 24 × days hourly bars ending with the current hour, traffic in its hour', () => {
    const bars = usageBars([{ hour: '2026-03-10T15:00:00.000Z', count: 3, size: 2_000_000 }, { hour: '2026-03-04T16:00:00.000Z', count: 1, size: 5 }], 7, true, NOW);
    expect(bars).toHaveLength(24 * 7);
    expect(bars.at(-1)).toEqual({ start: Date.parse('2026-03-10T15:00:00Z'), count: 3, size: 2_000_000 });
    expect(bars[0]).toEqual({ start: Date.parse('2026-03-03T16:00:00Z'), count: 0, size: 0 });
    expect(bars[24]).toMatchObject({ count: 1, size: 5 });
  });

  it('shows one bar per day from 90 days on, even when hourly is asked for', () => {
    expect(usageBars([], 90, true, NOW)).toHaveLength(90);
    expect(usageBars([], 365, true, NOW)).toHaveLength(365);
    expect(usageBars([], 30, false, NOW)).toHaveLength(30);
    const bars = usageBars([{ hour: '2026-03-10T15:00:00.000Z', count: 2, size: 1 }, { hour: '2026-03-10T14:00:00.000Z', count: 1, size: 1 }], 30, false, NOW);
    expect(bars.at(-1)).toMatchObject({ count: 3, size: 2 });
  });
});

describe('countTicks', () => {
  it('marks 0 and round steps of 1, 2 or 5 × 10^n up to the tallest bar', () => {
    expect(countTicks(5_085)).toEqual([0, 2_000, 4_000]);
    expect(countTicks(100)).toEqual([0, 50, 100]);
    expect(countTicks(37)).toEqual([0, 10, 20, 30]);
    expect(countTicks(1_000_000)).toEqual([0, 500_000, 1_000_000]);
  });

  it('marks whole requests only when the counts are small, and just 0 for an empty range', () => {
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(0)).toEqual([0]);
  });
});

describe('timeTicks', () => {
  it('names the first and the last bar and spreads the rest evenly', () => {
    const bars = usageBars([], 30, false, NOW);
    expect(timeTicks(bars)).toEqual([0, 7, 15, 22, 29]);
    expect(timeTicks(usageBars([], 7, true, NOW))).toEqual([0, 42, 84, 125, 167]);
  });

  it('names every bar of a short range, and none of an empty one', () => {
    expect(timeTicks(usageBars([], 3, false, NOW))).toEqual([0, 1, 2]);
    expect(timeTicks([])).toEqual([]);
  });
});
