import { describe, expect, it } from 'vitest';
import { nextTheme } from './theme';

describe('nextTheme', () => {
  it('cycles default, dark, light (spec 000 §4.7)', () => {
    expect(nextTheme('default')).toBe('dark');
    expect(nextTheme('dark')).toBe('light');
    expect(nextTheme('light')).toBe('default');
  });
});
