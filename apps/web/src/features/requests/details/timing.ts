/**
 * Timing bars of a network item (spec 001 §9: bar width is 2 px per millisecond, capped at the
 * full width). Phases come from the SDK's timings, or are derived from the platform's request
 * metrics (URLSessionTaskMetrics-like dates) when only those were sent.
 */
import type { NetworkDetails, Timings } from '@spyglass/protocol';

export const TIMING_PX_PER_MS = 2;

export interface TimingPhase {
  key: 'blocked' | 'dns' | 'connect' | 'ssl' | 'send' | 'wait' | 'receive' | 'total';
  label: string;
  /** Milliseconds spent in the phase. */
  ms: number;
  /** When the phase began, in ms after the request started (bars form a waterfall). */
  startMs: number;
}

const PHASES: Array<{ key: Exclude<TimingPhase['key'], 'total'>; label: string; alias?: keyof Timings }> = [
  { key: 'blocked', label: 'Blocked' },
  { key: 'dns', label: 'DNS lookup' },
  { key: 'connect', label: 'Connect', alias: 'tcp' },
  { key: 'ssl', label: 'TLS handshake', alias: 'tls' },
  { key: 'send', label: 'Send' },
  { key: 'wait', label: 'Waiting (TTFB)', alias: 'ttfb' },
  { key: 'receive', label: 'Receive', alias: 'download' },
];

/** A usable duration: HAR writes -1 for a phase that does not apply. */
const usable = (ms: number | undefined): ms is number => ms !== undefined && Number.isFinite(ms) && ms >= 0;

/** The phases to draw, in order; empty when the item carries no timing at all. */
export function timingPhases(details: Pick<NetworkDetails, 'timings' | 'request'>, duration?: number | null): TimingPhase[] {
  const timings = { ...metricsTimings(details.request.requestMetrics), ...stripUnusable(details.timings) };
  const phases: TimingPhase[] = [];
  let at = 0;
  for (const phase of PHASES) {
    const ms = timings[phase.key] ?? (phase.alias ? timings[phase.alias] : undefined);
    if (!usable(ms)) continue;
    // HAR counts the TLS handshake inside Connect: it starts within it, not after it.
    const startMs = phase.key === 'ssl' && usable(timings.connect ?? timings.tcp) ? at - ms : at;
    phases.push({ key: phase.key, label: phase.label, ms, startMs: Math.max(0, startMs) });
    if (phase.key !== 'ssl') at += ms;
  }
  const total = usable(timings.total) ? timings.total : usable(duration ?? undefined) ? duration! : phases.length ? at : undefined;
  if (total !== undefined) phases.push({ key: 'total', label: 'Total', ms: total, startMs: 0 });
  return phases;
}

function stripUnusable(timings: Timings | undefined): Timings {
  const out: Timings = {};
  for (const [key, value] of Object.entries(timings ?? {}) as Array<[keyof Timings, number | undefined]>) {
    if (usable(value)) out[key] = value;
  }
  return out;
}

type Metrics = NonNullable<NetworkDetails['request']['requestMetrics']>;

/** Phases from metric dates: each is the span between two of them, when both are present and ordered. */
export function metricsTimings(metrics: Metrics | undefined): Timings {
  if (!metrics) return {};
  const span = (from?: string, to?: string): number | undefined => {
    if (!from || !to) return undefined;
    const ms = Date.parse(to) - Date.parse(from);
    return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
  };
  const out: Timings = {};
  const set = (key: keyof Timings, ms: number | undefined) => {
    if (ms !== undefined) out[key] = ms;
  };
  set('blocked', span(metrics.fetchStartDate, metrics.domainLookupStartDate ?? metrics.connectStartDate ?? metrics.requestStartDate));
  set('dns', span(metrics.domainLookupStartDate, metrics.domainLookupEndDate));
  set('connect', span(metrics.connectStartDate, metrics.connectEndDate));
  set('ssl', span(metrics.secureConnectionStartDate, metrics.secureConnectionEndDate));
  set('send', span(metrics.requestStartDate, metrics.requestEndDate));
  set('wait', span(metrics.requestEndDate ?? metrics.requestStartDate, metrics.responseStartDate));
  set('receive', span(metrics.responseStartDate, metrics.responseEndDate));
  set('total', span(metrics.fetchStartDate ?? metrics.requestStartDate, metrics.responseEndDate));
  return out;
}

/** CSS of one bar: 2 px per ms from its start, neither the offset nor the bar reaching past the track. */
export function timingBarStyle(phase: Pick<TimingPhase, 'ms' | 'startMs'>): { left: string; width: string } {
  const left = phase.startMs * TIMING_PX_PER_MS;
  const width = Math.max(1, phase.ms * TIMING_PX_PER_MS);
  return { left: `min(100%, ${round(left)}px)`, width: `min(100% - min(100%, ${round(left)}px), ${round(width)}px)` };
}

const round = (px: number) => Math.round(px * 100) / 100;
