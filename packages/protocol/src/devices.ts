import { z } from 'zod';

export const PLATFORMS = ['ios', 'android'] as const;
/** `web` and `node` are JavaScript SDK runtimes; the dashboard shows them like the mobile platforms. */
export const DevicePlatform = z.enum(['ios', 'android', 'web', 'node']);
export type DevicePlatform = z.infer<typeof DevicePlatform>;

export const FeatureToggles = z.strictObject({
  logs: z.boolean(),
  network: z.boolean(),
  /** iOS only: capture of print() output. */
  prints: z.boolean(),
  events: z.boolean(),
});
export type FeatureToggles = z.infer<typeof FeatureToggles>;

const S = (max = 500) => z.string().max(max);
const N = z.number().finite();

/**
 * What a device tells about itself (spec 001 §3). Everything but the platform is optional:
 * each runtime reports what it can know.
 */
export const DeviceInfo = z.object({
  platform: DevicePlatform,
  name: S(200).optional(),
  model: S(200).optional(),
  localizedModel: S(200).optional(),
  type: S(100).optional(),
  version: S(100).optional(),
  simulator: z.boolean().optional(),
  bundleId: S(300).optional(),
  icon: S(200_000).optional(),
  group: S(200).optional(),
  clientAppVersion: S(100).optional(),
  clientAppMinimumOSVersion: S(100).optional(),
  clientAppDisplayName: S(200).optional(),
  sdkVersion: S(50).optional(),
  isScreenShareEnabled: z.boolean().optional(),
  manufacturer: S(200).optional(),
  brand: S(200).optional(),
  device: S(200).optional(),
  product: S(200).optional(),
  hardware: S(200).optional(),
  board: S(200).optional(),
  batteryLevel: N.optional(),
  batteryState: S(50).optional(),
  isLowPowerModeEnabled: z.boolean().optional(),
  physicalMemory: N.optional(),
  processorCount: N.optional(),
  activeProcessorCount: N.optional(),
  systemUptime: N.optional(),
  totalMemory: N.optional(),
  availableMemory: N.optional(),
  screenWidth: N.optional(),
  screenHeight: N.optional(),
  screenScale: N.optional(),
  screenBrightness: N.optional(),
  interfaceStyle: S(50).optional(),
  deviceOrientation: S(50).optional(),
  density: N.optional(),
  densityDpi: N.optional(),
  voiceoverActive: z.boolean().optional(),
  reduceMotionEnabled: z.boolean().optional(),
  boldTextEnabled: z.boolean().optional(),
  localeIdentifier: S(50).optional(),
  languageCode: S(20).optional(),
  regionCode: S(20).optional(),
  timezone: S(100).optional(),
  systemName: S(100).optional(),
  systemVersion: S(100).optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

/** A device as the API answers it. */
export const Device = DeviceInfo.extend({
  id: z.string(),
  name: z.string(),
  online: z.boolean(),
  lastSeen: z.string(),
  createdAt: z.string(),
  featureToggles: FeatureToggles,
  breakpointEnabled: z.boolean(),
});
export type Device = z.infer<typeof Device>;

/** PUT /devices/{id}: the editable part of a device (name, group, feature toggles). */
export const UpdateDeviceBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  group: z.string().max(200).optional(),
  featureToggles: FeatureToggles.optional(),
});
export type UpdateDeviceBody = z.infer<typeof UpdateDeviceBody>;

export const BreakpointBody = z.strictObject({ breakpointEnabled: z.boolean() });
export const SdkVersionResponse = z.object({ version: z.string() });
