import { describe, expect, it } from 'vitest';
import { isoWeek } from './usage-report';

describe('isoWeek', () => {
  it('names the ISO week, with the year its Thursday falls in', () => {
    expect(isoWeek(Date.parse('2026-06-01T12:00:00Z'))).toBe('2026-W23');
    expect(isoWeek(Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-W01');
    // Sunday 3 January 2027 still belongs to the last week of 2026.
    expect(isoWeek(Date.parse('2027-01-03T23:59:59Z'))).toBe('2026-W53');
    expect(isoWeek(Date.parse('2027-01-04T00:00:00Z'))).toBe('2027-W01');
  });
});
