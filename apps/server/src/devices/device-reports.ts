import type { DeviceFrame } from '@spyglass/protocol';
import type { IngestLimits } from '../ingest/ingest-limits';
import type { DeviceKey } from '../repositories/devices.repository';
import { DeviceInfoUpdates, type DeviceInfoUpdatesDeps } from './device-info-updates';
import { RouteConsoleUpdates } from './route-console-updates';

/** The frames of a welcomed device that report something rather than carry items or keep the link alive. */
export type ReportFrame = Exclude<DeviceFrame, { type: 'hello' | 'items' | 'ping' | 'pong' }>;

export interface DeviceReportsDeps extends DeviceInfoUpdatesDeps {
  commands: {
    resultReceived(userId: string, deviceId: string, commandId: string, result: { ok: boolean; data?: unknown; error?: string }): void;
  };
  limits: Pick<IngestLimits, 'deviceInfoIntervalMs' | 'routeConsoleIntervalMs'>;
}

/**
 * Where one welcomed device's reports go: command results to the command that waits for them,
 * user-defaults changes and screen-capture signalling to the account's dashboards, device info
 * and mocked-route logs coalesced into a write per interval.
 */
export class DeviceReports {
  private readonly infoUpdates: DeviceInfoUpdates;
  private readonly routeConsoles: RouteConsoleUpdates;

  constructor(private readonly deps: DeviceReportsDeps, private readonly device: DeviceKey) {
    this.infoUpdates = new DeviceInfoUpdates(deps, device, deps.limits.deviceInfoIntervalMs);
    this.routeConsoles = new RouteConsoleUpdates(deps, device, deps.limits.routeConsoleIntervalMs);
  }

  report(frame: ReportFrame, now: number): void {
    const { userId, deviceId } = this.device;
    switch (frame.type) {
      case 'result':
        this.deps.commands.resultReceived(userId, deviceId, frame.commandId, { ok: frame.ok, data: frame.data, error: frame.error });
        break;
      case 'device_info':
        this.infoUpdates.report(frame.device, now);
        break;
      case 'user_defaults_changed':
        this.deps.events.userDefaultsChanged(userId, deviceId, frame.groups);
        break;
      case 'mock_log':
        this.routeConsoles.report(frame.routeId, frame.entries);
        break;
      case 'offer':
      case 'candidate':
      case 'screen_capture_permission_denied':
      case 'screen_capture_not_supported':
      case 'screen_capture_failed':
      case 'screen_capture_ended':
        this.deps.events.screenCaptureSignal(userId, deviceId, frame);
        break;
    }
  }

  /** Writes what is still pending: the device's last reports are kept when its connection closes. */
  async flush(): Promise<void> {
    await this.infoUpdates.flush();
    await this.routeConsoles.flush();
  }
}
