import { describe, expect, it } from 'vitest';
import { NewRowTracker } from './new-row-tracker';

describe('NewRowTracker', () => {
  it('answers true once for an item that arrived within the 400 ms of the animation', () => {
    let now = 1000;
    const tracker = new NewRowTracker(() => now);
    tracker.mark(['a', 'b']);
    now += 399;
    expect(tracker.take('a')).toBe(true);
    expect(tracker.take('a')).toBe(false);
    now += 1;
    // Mounted too late (scrolled to afterwards): not animated.
    expect(tracker.take('b')).toBe(false);
    expect(tracker.take('never')).toBe(false);
  });
});
