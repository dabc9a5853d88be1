import type { Device, ViewerOutbound } from '@spyglass/protocol';

type StatusMessage = Extract<ViewerOutbound, { type: 'device_status' }>;

export interface StatusResult {
  devices: Device[];
  /** The device the message introduced, when the list did not hold it. */
  added: Device | null;
  /** The message named a device the list does not hold and did not describe it: reload the list. */
  unknown: boolean;
}

/**
 * Spec 000 §4.6: a status message updates online, name, sdkVersion, lastSeen and group of a known
 * device; an unknown device is appended.
 */
export function applyDeviceStatus(devices: readonly Device[], message: StatusMessage): StatusResult {
  const index = devices.findIndex((d) => d.id === message.deviceId);
  if (index < 0) {
    if (!message.device) return { devices: [...devices], added: null, unknown: true };
    return { devices: [...devices, message.device], added: message.device, unknown: false };
  }
  const current = devices[index]!;
  const next: Device = {
    ...current,
    online: message.online,
    name: message.name,
    lastSeen: message.lastSeen,
    sdkVersion: message.sdkVersion ?? undefined,
    group: message.group ?? undefined,
  };
  return { devices: devices.with(index, next), added: null, unknown: false };
}

/** Device-update messages replace the device (spec 000 §4.6). */
export function replaceDevice(devices: readonly Device[], device: Device): Device[] {
  const index = devices.findIndex((d) => d.id === device.id);
  return index < 0 ? [...devices, device] : devices.with(index, device);
}

export function removeDevice(devices: readonly Device[], deviceId: string): Device[] {
  return devices.filter((d) => d.id !== deviceId);
}
