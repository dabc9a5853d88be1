import type { FastifyBaseLogger } from 'fastify';
import type { DeviceInfo } from '@spyglass/protocol';
import type { Db } from '../db/database';
import type { LiveEvents } from '../live/live-events';
import { toDevice, updateDeviceInfo, type DeviceKey } from '../repositories/devices.repository';

export interface DeviceInfoUpdatesDeps {
  db: Db;
  events: LiveEvents;
  log: FastifyBaseLogger;
  now(): number;
}

/**
 * What one connected device reports about itself (device_info), coalesced: written and announced
 * at most once per interval, the last report winning, so that a device sending thousands costs a
 * write a second, not one each, and other accounts' commits never queue behind them.
 */
export class DeviceInfoUpdates {
  private pending: DeviceInfo | null = null;
  private timer: NodeJS.Timeout | null = null;
  private writtenAt = -Infinity;

  constructor(private readonly deps: DeviceInfoUpdatesDeps, private readonly device: DeviceKey, private readonly intervalMs: number) {}

  report(info: DeviceInfo, now: number): void {
    this.pending = info;
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), Math.max(0, this.writtenAt + this.intervalMs - now));
  }

  /** Writes what is pending now (also when the connection closes: the last report is kept). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const info = this.pending;
    this.pending = null;
    if (!info) return;
    const { userId, deviceId } = this.device;
    this.writtenAt = this.deps.now();
    try {
      const row = await updateDeviceInfo(this.deps.db, userId, deviceId, info, this.writtenAt);
      if (row) this.deps.events.deviceUpdated(userId, toDevice(row, this.deps.now()));
    } catch (err) {
      this.deps.log.error({ err }, 'device info update failed');
    }
  }
}
