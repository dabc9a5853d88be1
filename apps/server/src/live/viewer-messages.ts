import type { CompactItem, UserDefaultsGroup, ConsoleEntry, Device, ViewerOutbound } from '@spyglass/protocol';
import { DEVICE_LIMIT_MESSAGE } from '@spyglass/protocol';
import { topics, type LiveBus } from './bus';

export const DEVICE_LIMIT_NOTICE_MS = 10_000;

/** How every payload of a device's batch of items starts (see `ViewerPublisher.newRequests`). */
const BATCH_HEAD = '{"type":"new_requests",';

/**
 * A payload on a device's viewer topic is one viewer message, exactly the JSON a viewer receives.
 * A batch of items is published once, as `new_requests`; viewers that subscribed without
 * `batches` get it as one `new_request` per item, which this rebuilds from it (once per node,
 * not per viewer). Answers null for any other message.
 */
export function itemMessagesOf(payload: string): string[] | null {
  if (!payload.startsWith(BATCH_HEAD)) return null;
  const batch = JSON.parse(payload) as { deviceId: string; requests: unknown[] };
  const head = `{"type":"new_request","deviceId":${JSON.stringify(batch.deviceId)},"request":`;
  return batch.requests.map((item) => `${head}${JSON.stringify(item)}}`);
}

export function deviceStatusMessage(device: Device): ViewerOutbound {
  return {
    type: 'device_status',
    deviceId: device.id,
    online: device.online,
    name: device.name,
    sdkVersion: device.sdkVersion ?? null,
    lastSeen: device.lastSeen,
    group: device.group ?? null,
    device,
  };
}

/**
 * What the server tells the viewers of an account. Device-level news (statuses, updates,
 * deletions) goes to every viewer of the account; a device's items go only to the viewers
 * watching that device, and are not even serialized when nobody can be watching.
 */
export class ViewerPublisher {
  /** When each account's dashboards were last told of a device refused at the limit. */
  private readonly deviceLimitNoticed = new Map<string, number>();

  constructor(private readonly bus: LiveBus) {}

  deviceStatus(userId: string, device: Device): void {
    this.toAccount(userId, () => deviceStatusMessage(device));
  }

  deviceUpdate(userId: string, device: Device): void {
    this.toAccount(userId, () => ({ type: 'device_update', device }));
  }

  deviceDeleted(userId: string, deviceId: string): void {
    this.toAccount(userId, () => ({ type: 'device_deleted', deviceId }));
  }

  /** Whether any viewer may be watching this device's items (when not, nobody builds them). */
  watched(userId: string, deviceId: string): boolean {
    return this.bus.mayHaveSubscribers(topics.deviceViewers(userId, deviceId));
  }

  /** New or completed items of one committed batch: one message, serialized once for every viewer. */
  newRequests(userId: string, deviceId: string, items: readonly CompactItem[]): void {
    if (items.length === 0) return;
    this.toDeviceViewers(userId, deviceId, () => ({ type: 'new_requests', deviceId, requests: items as CompactItem[] }));
  }

  /** To every viewer of the account: the mock routes screen need not watch the device's items. */
  routeConsole(userId: string, deviceId: string, routeId: string, consoleLog: ConsoleEntry[]): void {
    this.toAccount(userId, () => ({ type: 'route_console', deviceId, routeId, consoleLog }));
  }

  /**
   * The account's dashboards show the device-limit message (spec 001 §8). A refused device that
   * keeps trying is told at most once per account every DEVICE_LIMIT_NOTICE_MS.
   */
  deviceLimitReached(userId: string, deviceId: string): void {
    const now = Date.now();
    if (now - (this.deviceLimitNoticed.get(userId) ?? -Infinity) < DEVICE_LIMIT_NOTICE_MS) return;
    this.deviceLimitNoticed.set(userId, now);
    if (this.deviceLimitNoticed.size > 10_000) this.deviceLimitNoticed.clear();
    this.toAccount(userId, () => ({ type: 'device_limit_reached', deviceId, message: DEVICE_LIMIT_MESSAGE }));
  }

  /** To every viewer of the account: the quota banner is the whole dashboard's. */
  quotaChanged(userId: string, exceeded: boolean): void {
    this.toAccount(userId, () => ({ type: 'quota_changed', exceeded }));
  }

  /** To every viewer of the account: the User Defaults view need not watch the device's items. */
  userDefaultsChanged(userId: string, deviceId: string, groups: UserDefaultsGroup[]): void {
    this.toAccount(userId, () => ({ type: 'user_defaults_changed', deviceId, groups }));
  }

  requestsDeleted(userId: string, deviceId: string, ids: string[]): void {
    if (ids.length === 0) return;
    this.toDeviceViewers(userId, deviceId, () => ({ type: 'requests_deleted', deviceId, ids }));
  }

  requestsCleared(userId: string, deviceId: string): void {
    this.toDeviceViewers(userId, deviceId, () => ({ type: 'requests_cleared', deviceId }));
  }

  private toAccount(userId: string, build: () => ViewerOutbound): void {
    const topic = topics.account(userId);
    if (this.bus.mayHaveSubscribers(topic)) this.bus.publish(topic, JSON.stringify(build()));
  }

  private toDeviceViewers(userId: string, deviceId: string, build: () => ViewerOutbound): void {
    const topic = topics.deviceViewers(userId, deviceId);
    if (this.bus.mayHaveSubscribers(topic)) this.bus.publish(topic, JSON.stringify(build()));
  }
}
