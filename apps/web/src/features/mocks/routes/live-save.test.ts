import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveSaver, liveSaveTiming } from './live-save';

describe('live updates (spec 002 §4)', () => {
  let saves: number;
  let saver: LiveSaver;

  beforeEach(() => {
    vi.useFakeTimers();
    saves = 0;
    saver = new LiveSaver(() => { saves += 1; });
  });
  afterEach(() => vi.useRealTimers());

  it('saves headers at once', () => {
    saver.changed('headers');
    expect(saves).toBe(1);
    expect(saver.pending).toBe(false);
  });

  it('saves the body when its editor loses focus, not while typing', () => {
    saver.changed('body');
    saver.changed('body');
    vi.advanceTimersByTime(10_000);
    expect(saves).toBe(0);
    saver.blurred();
    expect(saves).toBe(1);
    saver.blurred();
    expect(saves).toBe(1);
  });

  it('saves other changes after a 1.5 s pause, restarted by each change', () => {
    saver.changed('mockedUrl');
    vi.advanceTimersByTime(1000);
    saver.changed('statusCode');
    vi.advanceTimersByTime(1499);
    expect(saves).toBe(0);
    vi.advanceTimersByTime(1);
    expect(saves).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(saves).toBe(1);
  });

  it('saves once for a pause and a body change cut short by a header change', () => {
    saver.changed('description');
    saver.changed('body');
    saver.changed('headers');
    expect(saves).toBe(1);
    vi.advanceTimersByTime(5000);
    saver.blurred();
    expect(saves).toBe(1);
  });

  it('flushes what is pending when the editor is left, and cancels on delete', () => {
    saver.changed('tags');
    saver.flush();
    expect(saves).toBe(1);
    saver.flush();
    expect(saves).toBe(1);
    saver.changed('code');
    saver.cancel();
    vi.advanceTimersByTime(5000);
    expect(saves).toBe(1);
  });

  it('maps each field to its timing', () => {
    expect(liveSaveTiming('headers')).toBe('now');
    expect(liveSaveTiming('body')).toBe('onBlur');
    for (const field of ['mode', 'responseMode', 'method', 'mockedUrl', 'statusCode', 'code', 'mapRemoteUrl', 'tags', 'description'] as const) {
      expect(liveSaveTiming(field)).toBe('afterPause');
    }
  });
});
