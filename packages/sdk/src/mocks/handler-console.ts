import { MOCK_LIMITS } from '@spyglass/protocol/device';
import type { ConsoleEntry, MockLogFrame } from '@spyglass/protocol';

/**
 * The `mock_log` frame carrying what a dynamic handler logged to its route's console (spec 002:
 * the console lists the handler's log entries), within the bounds the server accepts: the last
 * entries, each message cut to its limit. Not an item: it never shows among the requests.
 */
export function handlerLogFrame(routeId: string, entries: readonly ConsoleEntry[]): string {
  const kept = entries.slice(-MOCK_LIMITS.maxConsoleEntries).map((entry) => ({ ...entry, message: entry.message.slice(0, MOCK_LIMITS.maxConsoleMessage) }));
  const frame: MockLogFrame = { type: 'mock_log', routeId, entries: kept };
  return JSON.stringify(frame);
}

/** A failed handler's line, as the simulator writes it: 'Error: {message}'. */
export function handlerErrorEntry(error: string, now: Date): ConsoleEntry {
  return { time: now.toISOString(), message: `Error: ${error.replace(/^Error: /, '')}`, level: 'error' };
}
