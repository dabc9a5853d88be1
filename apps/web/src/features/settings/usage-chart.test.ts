import { describe, expect, it } from 'vitest';
import { usageBars } from './usage-chart';

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
