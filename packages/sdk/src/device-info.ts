import type { DeviceInfo } from '@spyglass/protocol';
import { SDK_VERSION } from './version';
import { isNode } from './websocket';

interface BrowserGlobals {
  navigator?: { userAgent?: string; language?: string; product?: string; hardwareConcurrency?: number; deviceMemory?: number };
  screen?: { width?: number; height?: number; orientation?: { type?: string } };
  devicePixelRatio?: number;
  matchMedia?: (query: string) => { matches: boolean };
  document?: { title?: string };
  location?: { host?: string };
}

/** What the SDK can learn about the runtime by itself; the app's `device` fields win over it. */
export async function detectDeviceInfo(): Promise<DeviceInfo> {
  const info: DeviceInfo = { platform: 'web', sdkVersion: SDK_VERSION, ...localeFields() };
  const g = globalThis as BrowserGlobals;
  if (isNode()) return { ...info, ...(await nodeFields()) };
  if (g.navigator?.product === 'ReactNative') return { ...info, type: 'React Native' };
  return { ...info, ...browserFields(g) };
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

async function nodeFields(): Promise<Partial<DeviceInfo>> {
  const os = await import('node:os');
  const cpus = os.cpus();
  return {
    platform: 'node',
    name: os.hostname(),
    type: 'Node.js',
    version: process.version,
    systemName: os.type(),
    systemVersion: os.release(),
    model: cpus[0]?.model.trim() || os.arch(),
    hardware: os.arch(),
    processorCount: cpus.length,
    activeProcessorCount: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    totalMemory: os.totalmem(),
    physicalMemory: os.totalmem(),
    availableMemory: os.freemem(),
    systemUptime: Math.round(os.uptime()),
  };
}

function browserFields(g: BrowserGlobals): Partial<DeviceInfo> {
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
