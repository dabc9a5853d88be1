import { formatTimestamp, type Device } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { formatMemory, formatUptime, iconSource, profileSections } from './device-profile-sections';

const device: Device = {
  id: 'sim-1',
  name: "Ana's iPhone",
  platform: 'ios',
  online: true,
  lastSeen: '2026-11-23T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  featureToggles: { logs: true, network: true, prints: true, events: true },
  breakpointEnabled: false,
  model: 'iPhone16,1',
  simulator: false,
  batteryLevel: 0.42,
  physicalMemory: 6 * 1024 ** 3,
  systemUptime: 93_784,
  screenBrightness: 0.5,
  voiceoverActive: true,
  group: '',
};

describe('profileSections', () => {
  const sections = profileSections(device);
  const field = (label: string) => sections.flatMap((s) => s.fields).find((f) => f.label === label)?.value;

  it('lists the reported fields with readable values', () => {
    expect(field('Name')).toBe("Ana's iPhone");
    expect(field('Platform')).toBe('iOS');
    expect(field('Simulator')).toBe('No');
    expect(field('Battery Level')).toBe('42%');
    expect(field('Physical Memory')).toBe('6 GB');
    expect(field('System Uptime')).toBe('1d 2h 3m');
    expect(field('VoiceOver Active')).toBe('Yes');
  });

  it('shows Last Seen and First Seen like the other timestamps: date and 24-hour time with milliseconds (spec 001 §9)', () => {
    // Was the browser's locale form ('11/23/2026, 10:00:00 AM') beside '2026-11-23 10:00:00.000' everywhere else.
    for (const label of ['Last Seen', 'First Seen']) expect(field(label)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(field('Last Seen')).toBe(formatTimestamp(device.lastSeen, { withDate: true }));
  });

  it('leaves out fields the device does not report and sections with none', () => {
    expect(field('Group')).toBeUndefined();
    expect(field('Manufacturer')).toBeUndefined();
    expect(sections.map((s) => s.title)).not.toContain('System');
    expect(sections.every((s) => s.fields.length > 0)).toBe(true);
  });

  it('covers every device field but the toggles and the icon', () => {
    const keys = ['model', 'localizedModel', 'type', 'version', 'manufacturer', 'brand', 'device', 'product', 'hardware', 'board',
      'clientAppVersion', 'clientAppMinimumOSVersion', 'clientAppDisplayName', 'sdkVersion', 'bundleId', 'isScreenShareEnabled',
      'batteryState', 'isLowPowerModeEnabled', 'processorCount', 'activeProcessorCount', 'totalMemory', 'availableMemory',
      'screenWidth', 'screenHeight', 'screenScale', 'density', 'densityDpi', 'interfaceStyle', 'deviceOrientation',
      'reduceMotionEnabled', 'boldTextEnabled', 'localeIdentifier', 'languageCode', 'regionCode', 'timezone', 'systemName', 'systemVersion'] as const;
    const withAll = { ...device, ...Object.fromEntries(keys.map((k) => [k, 'x'])) } as Device;
    const all = new Set(profileSections(withAll).flatMap((s) => s.fields.map((f) => f.key)));
    for (const key of keys) expect(all.has(key), key).toBe(true);
    expect(all.has('featureToggles')).toBe(false);
    expect(all.has('icon')).toBe(false);
  });
});

describe('formatUptime', () => {
  it('reads in the largest units', () => {
    expect(formatUptime(42)).toBe('42s');
    expect(formatUptime(125)).toBe('2m 5s');
    expect(formatUptime(7260)).toBe('2h 1m');
  });
});

describe('formatMemory', () => {
  it('shows gigabytes from 1 GB, megabytes below', () => {
    expect(formatMemory(3.25 * 1024 ** 3)).toBe('3.3 GB');
    expect(formatMemory(512 * 1024 ** 2)).toBe('512 MB');
  });
});

describe('iconSource', () => {
  it('takes data URLs and base64 PNG data, nothing else', () => {
    expect(iconSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(iconSource('iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(iconSource('javascript:alert(1)')).toBeNull();
    expect(iconSource(undefined)).toBeNull();
  });
});
