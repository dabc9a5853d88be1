import type { CompactItem, Device, ViewerOutbound } from '@spyglass/protocol';
import { topics, type LiveBus } from './bus';

/**
 * A bus payload for viewers is one or more viewer messages, each exactly the JSON a viewer
 * receives, joined by newlines (JSON.stringify never emits a raw newline). The publisher
 * serializes each message once; every node splits the payload once, whatever the number of
 * viewers behind it.
 */
export function splitViewerMessages(payload: string): string[] {
  return payload.split('\n');
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

  /** New or completed items of one committed batch: one bus message for the whole batch. */
  newRequests(userId: string, deviceId: string, items: readonly CompactItem[]): void {
    const topic = topics.deviceViewers(userId, deviceId);
    if (items.length === 0 || !this.bus.mayHaveSubscribers(topic)) return;
    // The envelope is the same for every item of the batch; only the item is serialized per item.
    const head = `{"type":"new_request","deviceId":${JSON.stringify(deviceId)},"request":`;
    let payload = '';
    for (const item of items) payload += (payload ? '\n' : '') + head + JSON.stringify(item) + '}';
    this.bus.publish(topic, payload);
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
