import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogOptions } from '../items';
import { formatConsoleArgs, installConsoleCapture } from './console';

describe('formatConsoleArgs', () => {
  it('formats like the console', () => {
    expect(formatConsoleArgs(['%s has %d items (%i%%)', 'cart', 3, 42.7])).toBe('cart has 3 items (42%)');
    expect(formatConsoleArgs(['user', { id: 1, tags: ['a'] }, 5, null])).toBe('user {"id":1,"tags":["a"]} 5 null');
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(formatConsoleArgs([circular])).toBe('{"a":1,"self":"[Circular]"}');
    expect(formatConsoleArgs([10n, undefined])).toBe('10n undefined');
  });
});

describe('installConsoleCapture', () => {
  let undo: (() => void) | undefined;
  afterEach(() => undo?.());

  it('mirrors console calls with their level and still prints them', () => {
    const printed = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errorPrinted = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: [string, LogOptions][] = [];
    undo = installConsoleCapture((message, options) => seen.push([message, options]));
    console.warn('disk %s', 'low');
    console.error(new Error('broken'));
    expect(printed).toHaveBeenCalledWith('disk %s', 'low');
    expect(errorPrinted).toHaveBeenCalledTimes(1);
    expect(seen[0]).toEqual(['disk low', { level: 'warning', category: 'console' }]);
    expect(seen[1]![1].level).toBe('error');
    expect(seen[1]![0]).toContain('Error: broken');
    expect(seen[1]![1].stackTrace).not.toHaveLength(0);
    undo();
    undo = undefined;
    console.warn('after');
    expect(seen).toHaveLength(2);
    printed.mockRestore();
    errorPrinted.mockRestore();
  });

  it('ignores console output made while reporting', () => {
    const seen: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    undo = installConsoleCapture((message) => {
      seen.push(message);
      console.log('from inside');
    });
    console.log('outside');
    expect(seen).toEqual(['outside']);
    log.mockRestore();
  });
});
