import { describe, expect, it } from 'vitest';
import { itemComparator } from '@spyglass/protocol';
import { ListStore } from '../store/list-store';
import { logItem, ManualHost } from '../store/test-items';
import { ChartBinner } from './chart-binner';
import { binAt, type ChartBins } from './chart-bins';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

/** Animation frames run when the test says so. */
function manualFrames() {
  const pending: (() => void)[] = [];
  return {
    request: (callback: () => void) => {
      pending.push(callback);
      return () => {
        const at = pending.indexOf(callback);
        if (at >= 0) pending.splice(at, 1);
      };
    },
    get count() { return pending.length; },
    flush: () => { for (const callback of pending.splice(0)) callback(); },
  };
}

const counts = (bins: ChartBins) => Array.from(bins.counts);

describe('ChartBinner', () => {
  it('bins the shown rows once per frame however many writes came, and follows the granularity', () => {
    const host = new ManualHost();
    const store = new ListStore({ host });
    const frames = manualFrames();
    const binner = new ChartBinner(store, { requestFrame: frames.request, host, offsetMs: 0 });
    let notified = 0;
    const stop = binner.subscribe(() => notified++);

    store.upsertMany([logItem('a', T0), logItem('b', T0 + MIN)]);
    store.upsertMany([logItem('c', T0 + 6 * MIN)]);
    store.upsertMany([logItem('d', T0 + 7 * MIN)]);
    expect(frames.count).toBe(1);
    frames.flush();
    expect(notified).toBe(1);
    expect(counts(binner.current)).toEqual([2, 2]);
    // Newest first: the first row of the older bin is b (index 2).
    expect(binAt(binner.current, T0 / (5 * MIN)).firstIndex).toBe(2);

    binner.setGranularity(1);
    frames.flush();
    expect(counts(binner.current)).toEqual([1, 1, 1, 1]);
    expect(binner.granularity).toBe(1);

    stop();
    store.upsertMany([logItem('e', T0 + 8 * MIN)]);
    expect(frames.count).toBe(0);
  });

  it('bins rows in another order in time slices, keeping the old bins meanwhile', () => {
    const host = new ManualHost();
    const byLevel = itemComparator({ column: 'level', direction: 'asc' });
    const store = new ListStore({ host, sliceMs: 0, compare: byLevel });
    const frames = manualFrames();
    const binner = new ChartBinner(store, { requestFrame: frames.request, host, offsetMs: 0 });
    binner.subscribe(() => undefined);
    store.upsertMany([
      logItem('a', T0, { level: 'error' }), logItem('b', T0 + 6 * MIN, { level: 'debug' }), logItem('c', T0 + MIN, { level: 'info' }),
    ]);
    frames.flush();
    expect(binner.current.total).toBe(0);
    host.runAll();
    expect(counts(binner.current)).toEqual([2, 1]);
    // Shown by level descending: info (c), error (a), debug (b): the first row of the first bin is c.
    expect(binAt(binner.current, T0 / (5 * MIN)).firstIndex).toBe(0);

    // A write while a pass runs is binned once that pass has landed.
    store.upsertMany([logItem('d', T0 + 2 * MIN, { level: 'warning' })]);
    frames.flush();
    store.upsertMany([logItem('e', T0 + 12 * MIN, { level: 'warning' })]);
    expect(frames.count).toBe(0);
    host.runAll();
    expect(frames.count).toBe(1);
    frames.flush();
    host.runAll();
    expect(counts(binner.current)).toEqual([3, 1, 1]);
  });
});
