import type { FastifyBaseLogger } from 'fastify';
import { MOCK_LIMITS, type ConsoleEntry } from '@spyglass/protocol';
import type { Db } from '../db/database';
import type { LiveEvents } from '../live/live-events';
import { appendRouteConsole } from '../repositories/mocked-routes.repository';
import type { DeviceKey } from '../repositories/devices.repository';

export interface RouteConsoleUpdatesDeps {
  db: Db;
  events: LiveEvents;
  log: FastifyBaseLogger;
}

/**
 * What the dynamic handlers of one connected device log (mock_log frames), delivered to the
 * console log of each route (spec 002): entries gathered per route and written and announced
 * at most once per interval, so a handler serving a request loop costs a write per interval,
 * not one per request. A route keeps its last `maxConsoleEntries`, so no more are held here.
 */
export class RouteConsoleUpdates {
  private readonly pending = new Map<string, ConsoleEntry[]>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RouteConsoleUpdatesDeps, private readonly device: DeviceKey, private readonly intervalMs: number) {}

  report(routeId: string, entries: readonly ConsoleEntry[]): void {
    const held = [...(this.pending.get(routeId) ?? []), ...entries];
    this.pending.set(routeId, held.slice(-MOCK_LIMITS.maxConsoleEntries));
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes what is pending now (also when the connection closes). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending.clear();
    // One write at a time, in order: a route's entries are appended in the order they were logged.
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Array<[string, ConsoleEntry[]]>): Promise<void> {
    const { userId, deviceId } = this.device;
    for (const [routeId, entries] of batch) {
      try {
        const consoleLog = await appendRouteConsole(this.deps.db, userId, deviceId, routeId, entries);
        if (consoleLog) this.deps.events.routeConsoleChanged(userId, deviceId, routeId, consoleLog);
      } catch (err) {
        this.deps.log.error({ err }, 'route console update failed');
      }
    }
  }
}
