import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { LiveEvents } from '../live/live-events';
import { markSilentDevicesOffline, toDevice } from '../repositories/devices.repository';
import { startPeriodicJob, type PeriodicJob } from './periodic-job';

/**
 * With several nodes, a node that dies (SIGKILL, a lost machine) never marks its devices offline,
 * and the devices that do not come back would stay online on every dashboard. Every node sweeps:
 * a device flagged online but not heard from for a heartbeat timeout and one more period (a
 * living node records its devices every period) is marked offline and announced. The update
 * changes each row once, so one node announces it. A pass answers how many devices it marked offline.
 */
export function startPresenceSweep(options: {
  db: Db; events: LiveEvents; limits: { heartbeatIntervalMs: number; heartbeatTimeoutMs: number }; now: () => number; log: FastifyBaseLogger;
}): PeriodicJob<number> {
  const silence = options.limits.heartbeatTimeoutMs + options.limits.heartbeatIntervalMs;
  return startPeriodicJob({
    name: 'presence sweep',
    intervalMs: options.limits.heartbeatIntervalMs,
    runAtStart: false,
    log: options.log,
    async run() {
      const now = options.now();
      const rows = await markSilentDevicesOffline(options.db, now - silence);
      for (const row of rows) options.events.deviceDisconnected(row.user_id, toDevice(row, now));
      return rows.length;
    },
  });
}
