import type { DeviceInfo } from '@spyglass/protocol';
import { SDK_VERSION } from './version';

interface BrowserGlobals {
  navigator?: { userAgent?: string; language?: string; product?: string; hardwareConcurrency?: number; deviceMemory?: number };
  screen?: { width?: number; height?: number; orientation?: { type?: string } };
  devicePixelRatio?: number;
  matchMedia?: (query: string) => { matches: boolean };
  document?: { title?: string };
  location?: { host?: string };
}

/** Fields every runtime can tell: the SDK version, locale and time zone. */
export function commonDeviceFields(): DeviceInfo {
  return { platform: 'web', sdkVersion: SDK_VERSION, ...localeFields() };
}

function localeFields(): Partial<DeviceInfo> {
  const out: Partial<DeviceInfo> = {};
  try {
    const options = Intl.DateTimeFormat().resolvedOptions();
    out.timezone = options.timeZone;
    const locale = new Intl.Locale((globalThis as BrowserGlobals).navigator?.language ?? options.locale);
    out.localeIdentifier = locale.baseName.replace('-', '_');
    out.languageCode = locale.language;
    if (locale.region) out.regionCode = locale.region;
  } catch {
    // Intl without locale data (some React Native builds): leave the fields out
  }
  return out;
}

/** What a browser page tells about itself. */
export function browserFields(): Partial<DeviceInfo> {
  const g = globalThis as BrowserGlobals;
  const out: Partial<DeviceInfo> = { type: 'Browser' };
  const ua = g.navigator?.userAgent;
  if (ua) out.model = ua.slice(0, 200);
  if (g.document?.title) out.clientAppDisplayName = g.document.title.slice(0, 200);
  if (g.location?.host) out.bundleId = g.location.host;
  if (g.screen?.width) out.screenWidth = g.screen.width;
  if (g.screen?.height) out.screenHeight = g.screen.height;
  if (g.screen?.orientation?.type) out.deviceOrientation = g.screen.orientation.type;
  if (g.devicePixelRatio) out.screenScale = g.devicePixelRatio;
  if (g.navigator?.hardwareConcurrency) out.processorCount = g.navigator.hardwareConcurrency;
  if (g.navigator?.deviceMemory) out.physicalMemory = g.navigator.deviceMemory * 1024 ** 3;
  if (g.matchMedia) {
    out.interfaceStyle = g.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    out.reduceMotionEnabled = g.matchMedia('(prefers-reduced-motion: reduce)').matches;
  }
  return out;
}
