import { describe, expect, it } from 'vitest';
import type { NetworkDetails } from '@spyglass/protocol';
import { metricsTimings, timingBarStyle, timingPhases, TIMING_PX_PER_MS } from './timing';

const request: NetworkDetails['request'] = { method: 'GET', url: 'https://a.example/', headers: {} };

describe('timingPhases', () => {
  it('lays the SDK timings out as a waterfall with the total last', () => {
    const phases = timingPhases({ request, timings: { total: 120, wait: 80, ttfb: 80, receive: 40, download: 40 } });
    expect(phases).toEqual([
      { key: 'wait', label: 'Waiting (TTFB)', ms: 80, startMs: 0 },
      { key: 'receive', label: 'Receive', ms: 40, startMs: 80 },
      { key: 'total', label: 'Total', ms: 120, startMs: 0 },
    ]);
  });

  it('uses the alternate names (tcp, tls, ttfb, download) when the HAR ones are missing', () => {
    const phases = timingPhases({ request, timings: { tcp: 10, tls: 6, ttfb: 20, download: 5 } });
    expect(phases.map((p) => [p.key, p.ms, p.startMs])).toEqual([
      ['connect', 10, 0], ['ssl', 6, 4], ['wait', 20, 10], ['receive', 5, 30], ['total', 35, 0],
    ]);
  });

  it('skips phases HAR marks as not applicable (-1) and falls back to the item duration for the total', () => {
    const phases = timingPhases({ request, timings: { dns: -1, connect: -1, wait: 30 } }, 50);
    expect(phases.map((p) => p.key)).toEqual(['wait', 'total']);
    expect(phases.at(-1)!.ms).toBe(50);
  });

  it('draws only the total when only the duration is known, and nothing without any timing', () => {
    expect(timingPhases({ request }, 75)).toEqual([{ key: 'total', label: 'Total', ms: 75, startMs: 0 }]);
    expect(timingPhases({ request })).toEqual([]);
    expect(timingPhases({ request }, null)).toEqual([]);
  });

  it('derives phases from request metrics dates', () => {
    const t = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
    const requestMetrics = {
      fetchStartDate: t(0), domainLookupStartDate: t(2), domainLookupEndDate: t(12), connectStartDate: t(12),
      secureConnectionStartDate: t(20), secureConnectionEndDate: t(30), connectEndDate: t(30), requestStartDate: t(31),
      requestEndDate: t(33), responseStartDate: t(83), responseEndDate: t(100),
    };
    expect(metricsTimings(requestMetrics)).toEqual({ blocked: 2, dns: 10, connect: 18, ssl: 10, send: 2, wait: 50, receive: 17, total: 100 });
    const phases = timingPhases({ request: { ...request, requestMetrics } });
    expect(phases.find((p) => p.key === 'ssl')).toMatchObject({ startMs: 20 });
    expect(phases.find((p) => p.key === 'wait')).toMatchObject({ ms: 50, startMs: 32 });
    // The SDK's own numbers win over derived ones.
    expect(timingPhases({ request: { ...request, requestMetrics }, timings: { wait: 49 } }).find((p) => p.key === 'wait')!.ms).toBe(49);
  });

  it('ignores metric spans that are missing, unparsable or negative', () => {
    expect(metricsTimings({ requestStartDate: 'garbage', requestEndDate: '2026-01-01T00:00:00Z' })).toEqual({});
    expect(metricsTimings({ responseStartDate: '2026-01-01T00:00:01Z', responseEndDate: '2026-01-01T00:00:00Z' })).toEqual({});
    expect(metricsTimings(undefined)).toEqual({});
  });
});

describe('timingBarStyle', () => {
  it('is 2 px per millisecond, from the phase start', () => {
    expect(TIMING_PX_PER_MS).toBe(2);
    expect(timingBarStyle({ startMs: 0, ms: 40 })).toEqual({ left: 'min(100%, 0px)', width: 'min(100% - min(100%, 0px), 80px)' });
    expect(timingBarStyle({ startMs: 10, ms: 2.5 })).toEqual({ left: 'min(100%, 20px)', width: 'min(100% - min(100%, 20px), 5px)' });
  });

  it('is capped at the track (CSS min with 100 %) and never thinner than a pixel', () => {
    const { left, width } = timingBarStyle({ startMs: 5000, ms: 100_000 });
    expect(left).toBe('min(100%, 10000px)');
    expect(width).toBe('min(100% - min(100%, 10000px), 200000px)');
    expect(timingBarStyle({ startMs: 0, ms: 0 }).width).toBe('min(100% - min(100%, 0px), 1px)');
  });
});
