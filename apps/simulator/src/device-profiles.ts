import type { DeviceInfo } from '@spyglass/protocol';
import { gradientPng } from './png';
import type { Random } from './random';

const IPHONES = [
  { model: 'iPhone16,2', name: 'iPhone 15 Pro Max', width: 430, height: 932, scale: 3, memory: 8 },
  { model: 'iPhone16,1', name: 'iPhone 15 Pro', width: 393, height: 852, scale: 3, memory: 8 },
  { model: 'iPhone15,4', name: 'iPhone 15', width: 393, height: 852, scale: 3, memory: 6 },
  { model: 'iPhone14,7', name: 'iPhone 14', width: 390, height: 844, scale: 3, memory: 6 },
  { model: 'iPhone14,6', name: 'iPhone SE (3rd generation)', width: 375, height: 667, scale: 2, memory: 4 },
  { model: 'iPad14,1', name: 'iPad mini (6th generation)', width: 744, height: 1133, scale: 2, memory: 4 },
] as const;

const ANDROIDS = [
  { manufacturer: 'Google', brand: 'google', model: 'Pixel 8 Pro', device: 'husky', board: 'husky', hardware: 'husky', width: 412, height: 892, density: 3.5, memory: 12 },
  { manufacturer: 'Google', brand: 'google', model: 'Pixel 7a', device: 'lynx', board: 'lynx', hardware: 'lynx', width: 412, height: 915, density: 2.625, memory: 8 },
  { manufacturer: 'samsung', brand: 'samsung', model: 'SM-S911B', device: 'dm1q', board: 'kalama', hardware: 'qcom', width: 360, height: 780, density: 3, memory: 8 },
  { manufacturer: 'samsung', brand: 'samsung', model: 'SM-A546B', device: 'a54x', board: 's5e8835', hardware: 's5e8835', width: 412, height: 915, density: 2.625, memory: 6 },
  { manufacturer: 'OnePlus', brand: 'OnePlus', model: 'CPH2449', device: 'OP594DL1', board: 'kalama', hardware: 'qcom', width: 412, height: 919, density: 3.5, memory: 16 },
  { manufacturer: 'Xiaomi', brand: 'Redmi', model: '23049RAD8C', device: 'marble', board: 'taro', hardware: 'qcom', width: 393, height: 873, density: 2.75, memory: 8 },
] as const;

const IOS_VERSIONS = ['16.7.10', '17.5.1', '17.6.1', '18.0.1', '18.1', '18.2'] as const;
const ANDROID_VERSIONS = [
  { release: '12', sdk: 31 }, { release: '13', sdk: 33 }, { release: '14', sdk: 34 }, { release: '15', sdk: 35 },
] as const;
const APPS = [
  { bundleId: 'com.acme.shop', name: 'Acme Shop', versions: ['3.12.0', '3.12.1', '3.13.0'], group: 'Shop' },
  { bundleId: 'com.acme.shop.staging', name: 'Acme Shop β', versions: ['3.14.0'], group: 'Shop' },
  { bundleId: 'io.fleetly.driver', name: 'Fleetly Driver', versions: ['1.8.4', '1.9.0'], group: 'Fleet' },
  { bundleId: 'app.moodnotes', name: 'Moodnotes', versions: ['5.0.2'], group: 'Health' },
] as const;
const LOCALES = [
  { locale: 'en_US', tz: 'America/New_York' }, { locale: 'en_GB', tz: 'Europe/London' }, { locale: 'de_DE', tz: 'Europe/Berlin' },
  { locale: 'fr_FR', tz: 'Europe/Paris' }, { locale: 'ja_JP', tz: 'Asia/Tokyo' }, { locale: 'pt_BR', tz: 'America/Sao_Paulo' },
  { locale: 'es_MX', tz: 'America/Mexico_City' }, { locale: 'hi_IN', tz: 'Asia/Kolkata' },
] as const;
const OWNERS = ['Alex', 'Sam', 'Priya', 'Jonas', 'Mei', 'Lucas', 'Fatima', 'Noah', 'Yuki', 'Ana'] as const;

/** Current SDK versions, with an outdated one now and then (spec 000 §5 rule). */
const SDK_VERSIONS = { ios: ['1.4.540', '1.4.561', '1.4.100'], android: ['1.0.90', '1.0.97', '1.0.12'] } as const;

export type MobilePlatform = 'ios' | 'android';

const ICONS = new Map<string, string>();

/** A 32×32 icon per app, in the app's own colours (base64 PNG). */
function appIcon(bundleId: string): string {
  let icon = ICONS.get(bundleId);
  if (!icon) {
    const h = [...bundleId].reduce((a, c) => (a * 33 + c.charCodeAt(0)) >>> 0, 5381);
    icon = gradientPng(32, 32, [h & 255, (h >> 8) & 255, (h >> 16) & 255], [(h >> 3) & 255, 255 - (h & 255), 96]).toString('base64');
    ICONS.set(bundleId, icon);
  }
  return icon;
}

/** Device fields (spec 001 §3) of a plausible phone for virtual device `index`. */
export function deviceProfile(index: number, platform: MobilePlatform, random: Random): DeviceInfo {
  const app = random.pick(APPS);
  const { locale, tz } = random.pick(LOCALES);
  const [language, region] = locale.split('_') as [string, string];
  const owner = random.pick(OWNERS);
  const common = {
    platform,
    icon: appIcon(app.bundleId),
    clientAppVersion: random.pick(app.versions),
    clientAppDisplayName: app.name,
    bundleId: app.bundleId,
    group: app.group,
    sdkVersion: random.pick(SDK_VERSIONS[platform]),
    simulator: random.chance(0.3),
    batteryLevel: Math.round(random.next() * 100) / 100,
    batteryState: random.pick(['charging', 'unplugged', 'full']),
    isLowPowerModeEnabled: random.chance(0.15),
    processorCount: random.pick([6, 8]),
    systemUptime: random.int(600, 3_000_000),
    screenBrightness: Math.round(random.next() * 100) / 100,
    interfaceStyle: random.pick(['light', 'dark']),
    deviceOrientation: random.chance(0.85) ? 'portrait' : 'landscapeLeft',
    voiceoverActive: random.chance(0.05),
    reduceMotionEnabled: random.chance(0.1),
    boldTextEnabled: random.chance(0.1),
    localeIdentifier: locale,
    languageCode: language,
    regionCode: region,
    timezone: tz,
  } satisfies Partial<DeviceInfo>;

  if (platform === 'ios') {
    const phone = random.pick(IPHONES);
    const version = random.pick(IOS_VERSIONS);
    const memory = phone.memory * 1024 ** 3;
    return {
      ...common,
      name: `${owner}'s ${phone.name.startsWith('iPad') ? 'iPad' : 'iPhone'} ${index + 1}`,
      model: phone.model,
      localizedModel: phone.name,
      type: phone.name.startsWith('iPad') ? 'iPad' : 'iPhone',
      version,
      systemName: 'iOS',
      systemVersion: version,
      clientAppMinimumOSVersion: '15.0',
      isScreenShareEnabled: random.chance(0.5),
      physicalMemory: memory,
      totalMemory: memory,
      availableMemory: Math.round(memory * (0.2 + random.next() * 0.5)),
      activeProcessorCount: common.processorCount,
      screenWidth: phone.width,
      screenHeight: phone.height,
      screenScale: phone.scale,
    };
  }
  const phone = random.pick(ANDROIDS);
  const os = random.pick(ANDROID_VERSIONS);
  const memory = phone.memory * 1024 ** 3;
  return {
    ...common,
    name: `${owner}'s ${phone.manufacturer} ${index + 1}`,
    model: phone.model,
    localizedModel: phone.model,
    type: 'phone',
    version: os.release,
    systemName: 'Android',
    systemVersion: `${os.release} (API ${os.sdk})`,
    clientAppMinimumOSVersion: '26',
    manufacturer: phone.manufacturer,
    brand: phone.brand,
    device: phone.device,
    product: phone.device,
    hardware: phone.hardware,
    board: phone.board,
    physicalMemory: memory,
    totalMemory: memory,
    availableMemory: Math.round(memory * (0.2 + random.next() * 0.5)),
    activeProcessorCount: common.processorCount,
    screenWidth: phone.width,
    screenHeight: phone.height,
    screenScale: phone.density,
    density: phone.density,
    densityDpi: Math.round(phone.density * 160),
  };
}
