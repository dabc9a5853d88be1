import { describe, expect, it } from 'vitest';
import { createMessageChannelHost, runSliced } from './time-slicer';

describe('runSliced', () => {
  it('runs a generator across macrotasks and hands back its result', async () => {
    const host = createMessageChannelHost();
    let steps = 0;
    function* work(): Generator<void, string> {
      for (let i = 0; i < 5; i++) {
        steps++;
        yield;
      }
      return 'done';
    }
    const result = await new Promise<string>((resolve) => runSliced(work(), resolve, host, 0));
    expect(result).toBe('done');
    expect(steps).toBe(5);
  });

  it('stops for good when cancelled', async () => {
    const host = createMessageChannelHost();
    let steps = 0;
    let finished = false;
    function* endless(): Generator<void, void> {
      for (;;) {
        steps++;
        yield;
      }
    }
    const task = runSliced(endless(), () => (finished = true), host, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    task.cancel();
    const after = steps;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(after).toBeGreaterThan(1);
    expect(steps).toBe(after);
    expect(finished).toBe(false);
  });
});
