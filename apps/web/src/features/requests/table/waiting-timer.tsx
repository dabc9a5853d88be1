import { createContext, useContext, useSyncExternalStore } from 'react';
import { formatDuration, isInFlight, WAITING_TIMER, type CompactItem } from '@spyglass/protocol';

/**
 * One clock for every waiting timer on screen: a single interval ticks while at least one timer
 * is shown, so a table of pending requests costs one timer, not one per row.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let interval: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!interval) {
    now = Date.now();
    interval = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, WAITING_TIMER.refreshMs);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(interval);
      interval = undefined;
    }
  };
}

const currentTime = () => now;

/** A request in flight (the search's `is:pending`) shows a waiting timer in its row. */
export { isInFlight };

/**
 * The live waiting timer of a request in flight (spec 001 §9): time since it started, refreshed
 * every 100 ms, shown only after 50 ms (`fallback` before). It stands in the row's status pill and
 * Duration cell; when the answer arrives they show the status and the duration in its place.
 * Device and browser clocks may differ: a start in the future counts as just now.
 */
export function WaitingTimer({ item, fallback = null }: { item: CompactItem; fallback?: string | null }) {
  return useContext(LiveTimersContext) ? <RunningTimer item={item} fallback={fallback} /> : fallback;
}

/**
 * Whether a request in flight can still be answered where it is shown: true for a live device,
 * false in a saved session, a copy taken at save time whose unanswered requests never get their
 * answer (a timer there would count up forever: '2 min', then hours, on a shared link).
 */
export const LiveTimersContext = createContext(true);

function RunningTimer({ item, fallback }: { item: CompactItem; fallback: string | null }) {
  const time = useSyncExternalStore(subscribe, currentTime, currentTime);
  const started = Date.parse((item.type === 'network' && item.details.request.startedAt) || item.createdAt);
  const elapsed = Math.max(0, time - started);
  if (elapsed < WAITING_TIMER.showAfterMs) return fallback;
  return <span className="req-waiting" aria-label={`Waiting ${formatDuration(elapsed)}`}>{formatDuration(elapsed)}</span>;
}
