import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RUNNING_ARRIVALS, releaseArrival, reserveArrival } from './row-arrival';

describe('row arrival budget', () => {
  let held = 0;
  afterEach(() => {
    for (; held > 0; held--) releaseArrival();
  });

  it('lets a screenful of rows animate at once, then none until one ends', () => {
    for (let i = 0; i < MAX_RUNNING_ARRIVALS; i++) {
      expect(reserveArrival()).toBe(true);
      held++;
    }
    expect(reserveArrival()).toBe(false);
    releaseArrival();
    held--;
    expect(reserveArrival()).toBe(true);
    held++;
  });

  it('never counts below zero', () => {
    releaseArrival();
    releaseArrival();
    expect(reserveArrival(1)).toBe(true);
    held++;
    expect(reserveArrival(1)).toBe(false);
  });
});
