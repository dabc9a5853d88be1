import { formatTimestamp, type Device } from '@spyglass/protocol';

export interface ProfileField {
  key: keyof Device;
  label: string;
  value: string;
}

export interface ProfileSection {
  title: string;
  fields: ProfileField[];
}

type Format = (value: NonNullable<Device[keyof Device]>) => string;

const yesNo: Format = (value) => (value === true ? 'Yes' : value === false ? 'No' : String(value));
const GIB = 1024 ** 3;
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Memory in bytes, as phones are sold: `6 GB`, `3.2 GB`, `512 MB`. */
export function formatMemory(bytes: number): string {
  return bytes >= GIB ? `${oneDecimal.format(bytes / GIB)} GB` : `${oneDecimal.format(bytes / 1024 ** 2)} MB`;
}
const bytes: Format = (value) => (typeof value === 'number' ? formatMemory(value) : String(value));
const percent: Format = (value) => (typeof value === 'number' ? `${Math.round(value * 100)}%` : String(value));
/** Spec 001 §9: 24 hours with milliseconds, as the request list and the sessions show times. */
const date: Format = (value) => {
  const time = Date.parse(String(value));
  return Number.isNaN(time) ? String(value) : formatTimestamp(time, { withDate: true });
};

/** Spec 001 §3: system uptime is in seconds; shown as days, hours and minutes. */
export function formatUptime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return minutes > 0 ? `${minutes}m ${total % 60}s` : `${total}s`;
}
const uptime: Format = (value) => (typeof value === 'number' ? formatUptime(value) : String(value));

const PLATFORM_LABELS: Record<Device['platform'], string> = { ios: 'iOS', android: 'Android', web: 'Web', node: 'Node.js' };
const platform: Format = (value) => PLATFORM_LABELS[value as Device['platform']] ?? String(value);

type FieldSpec = readonly [key: keyof Device, label: string, format?: Format];

/**
 * Every device field of spec 001 §3, grouped as the profile shows them. Feature toggles have
 * their own switches and the icon heads the modal, so neither is listed here.
 */
const SECTIONS: ReadonlyArray<{ title: string; fields: readonly FieldSpec[] }> = [
  {
    title: 'Device',
    fields: [
      ['name', 'Name'], ['id', 'ID'], ['platform', 'Platform', platform], ['model', 'Model'], ['localizedModel', 'Localized Model'],
      ['type', 'Type'], ['simulator', 'Simulator', yesNo], ['manufacturer', 'Manufacturer'], ['brand', 'Brand'],
      ['device', 'Device'], ['product', 'Product'], ['hardware', 'Hardware'], ['board', 'Board'],
    ],
  },
  {
    title: 'Status',
    fields: [['online', 'Online', yesNo], ['lastSeen', 'Last Seen', date], ['createdAt', 'First Seen', date], ['systemUptime', 'System Uptime', uptime]],
  },
  {
    title: 'System',
    fields: [
      ['systemName', 'System Name'], ['systemVersion', 'System Version'], ['version', 'Version'],
      ['localeIdentifier', 'Locale'], ['languageCode', 'Language'], ['regionCode', 'Region'], ['timezone', 'Time Zone'],
    ],
  },
  {
    title: 'App',
    fields: [
      ['clientAppDisplayName', 'App Name'], ['bundleId', 'Bundle ID'], ['clientAppVersion', 'App Version'],
      ['clientAppMinimumOSVersion', 'Minimum OS Version'], ['group', 'Group'], ['sdkVersion', 'SDK Version'],
      ['isScreenShareEnabled', 'Screen Share Enabled', yesNo], ['breakpointEnabled', 'Breakpoints Enabled', yesNo],
    ],
  },
  {
    title: 'Battery and Memory',
    fields: [
      ['batteryLevel', 'Battery Level', percent], ['batteryState', 'Battery State'], ['isLowPowerModeEnabled', 'Low Power Mode', yesNo],
      ['physicalMemory', 'Physical Memory', bytes], ['totalMemory', 'Total Memory', bytes], ['availableMemory', 'Available Memory', bytes],
      ['processorCount', 'Processors'], ['activeProcessorCount', 'Active Processors'],
    ],
  },
  {
    title: 'Screen',
    fields: [
      ['screenWidth', 'Screen Width'], ['screenHeight', 'Screen Height'], ['screenScale', 'Screen Scale'],
      ['screenBrightness', 'Screen Brightness', percent], ['density', 'Density'], ['densityDpi', 'Density DPI'],
      ['interfaceStyle', 'Interface Style'], ['deviceOrientation', 'Orientation'],
    ],
  },
  {
    title: 'Accessibility',
    fields: [['voiceoverActive', 'VoiceOver Active', yesNo], ['reduceMotionEnabled', 'Reduce Motion', yesNo], ['boldTextEnabled', 'Bold Text', yesNo]],
  },
];

/** The sections of the profile with the fields this device reports; empty sections are left out. */
export function profileSections(device: Device): ProfileSection[] {
  return SECTIONS.map(({ title, fields }) => ({
    title,
    fields: fields.flatMap(([key, label, format]) => {
      const value = device[key];
      if (value === undefined || value === null || value === '') return [];
      return [{ key, label, value: format ? format(value) : String(value) }];
    }),
  })).filter((section) => section.fields.length > 0);
}

/** The app icon as an image address: a data URL as sent, or base64 PNG data (docs/protocol.md). */
export function iconSource(icon: string | undefined): string | null {
  if (!icon) return null;
  if (icon.startsWith('data:image/')) return icon;
  return /^[A-Za-z0-9+/=\s]+$/.test(icon) ? `data:image/png;base64,${icon.replace(/\s/g, '')}` : null;
}
