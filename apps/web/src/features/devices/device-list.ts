import type { Device } from '@spyglass/protocol';
import type { DeviceColumnId } from './device-columns';

export type SortDirection = 'asc' | 'desc';
export interface DeviceSort {
  column: DeviceColumnId;
  direction: SortDirection;
}

/** Spec 001: the device list starts sorted by lastSeen, newest first. */
export const DEFAULT_DEVICE_SORT: DeviceSort = { column: 'lastSeen', direction: 'desc' };

/** A click on a column sorts by it ascending; a second click reverses. */
export function toggleDeviceSort(current: DeviceSort, column: DeviceColumnId): DeviceSort {
  if (current.column !== column) return { column, direction: 'asc' };
  return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

const PLATFORM_NAMES: Record<Device['platform'], string> = { ios: 'iOS', android: 'Android', web: 'Web', node: 'Node.js' };

export const platformName = (device: Pick<Device, 'platform'>) => PLATFORM_NAMES[device.platform];

/** The Device Model cell: the marketing name when the device tells one (iPhone 15 Pro rather than iPhone16,1). */
export const modelLabel = (device: Device) => device.localizedModel || device.model || platformName(device);

/** The OS cell: system name and version, e.g. "iOS 17.5.1". */
export function osLabel(device: Device): string {
  const name = device.systemName || platformName(device);
  return device.systemVersion ? `${name} ${device.systemVersion}` : name;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function sortValue(device: Device, column: DeviceColumnId): string | number {
  switch (column) {
    case 'status': return device.online ? 1 : 0;
    case 'lastSeen': return Date.parse(device.lastSeen) || 0;
    case 'model': return modelLabel(device);
    case 'systemVersion': return osLabel(device);
    case 'name': return device.name;
    case 'bundleId': return device.bundleId ?? '';
    case 'group': return device.group ?? '';
    case 'id': return device.id;
    case 'sdkVersion': return device.sdkVersion ?? '';
  }
}

export function sortDevices(devices: readonly Device[], sort: DeviceSort): Device[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return devices
    .map((device) => ({ device, value: sortValue(device, sort.column) }))
    .sort((a, b) => {
      const byValue = typeof a.value === 'number' && typeof b.value === 'number'
        ? a.value - b.value
        : collator.compare(String(a.value), String(b.value));
      return byValue * sign || collator.compare(a.device.name, b.device.name) || collator.compare(a.device.id, b.device.id);
    })
    .map((entry) => entry.device);
}

/** Free-text search over what the list shows and the app's name, case-insensitive. */
export function matchesDeviceSearch(device: Device, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    device.name, modelLabel(device), device.model, device.bundleId, device.clientAppDisplayName, device.group,
    osLabel(device), device.id, device.sdkVersion, platformName(device),
  ];
  return haystack.some((value) => value?.toLowerCase().includes(needle));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} d ago`;
  return new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
