import crypto from 'node:crypto';
import type { DeviceInfo } from '@spyglass/protocol';
import { STANDARD_USER_DEFAULTS_SUITE } from '@spyglass/protocol/device';
import { memoryStorage, type KeyValueStorage, type UserDefaultsGroup } from '@spyglass/sdk';
import { createRandom, type Random } from './random';

/** Where the SDK keeps its user defaults in `userDefaultsStorage` (SpyglassOptions.userDefaultsStorage). */
const USER_DEFAULTS_KEY = 'spyglass.userDefaults';

/** What each simulated app keeps besides the system's keys, by bundle id. */
const APP_DEFAULTS: Readonly<Record<string, (random: Random) => Record<string, UserDefaultsGroup['entries'][number]['value']>>> = {
  'com.acme.shop': (random) => ({
    cartItemCount: random.int(0, 6),
    recentSearches: random.pick([['running shoes', 'headphones'], ['coffee grinder'], ['desk lamp', 'usb-c hub', 'backpack']]),
    preferredCurrency: random.pick(['USD', 'EUR', 'GBP']),
    showOnSaleOnly: random.chance(0.3),
  }),
  'com.acme.shop.staging': (random) => ({
    cartItemCount: random.int(0, 6),
    apiEnvironment: 'staging',
    debugMenuEnabled: true,
    stagingBaseURL: 'https://staging.api.acme.example',
  }),
  'io.fleetly.driver': (random) => ({
    driverId: `drv_${random.int(10_000, 99_999)}`,
    activeRouteId: random.chance(0.6) ? `route-${random.int(100, 999)}` : null,
    navigationApp: random.pick(['appleMaps', 'googleMaps', 'waze']),
    shareLocationInBackground: true,
  }),
  'app.moodnotes': (random) => ({
    dailyReminderTime: random.pick(['08:30', '20:00', '21:15']),
    streakDays: random.int(0, 120),
    healthKitSyncEnabled: random.chance(0.5),
    journalPromptCategories: ['gratitude', 'sleep', 'energy'],
  }),
};

/**
 * The user defaults of a simulated iOS app that has run before (docs/protocol.md §6.2): the
 * `standard` suite with the system's and the app's keys, and the app group its widget reads.
 * Seeded from the install id, so a device keeps the same ones from run to run.
 */
export function iosUserDefaults(info: DeviceInfo, installId: string): UserDefaultsGroup[] {
  const random = createRandom(crypto.createHash('sha256').update(installId).digest().readUInt32BE(0));
  const language = info.languageCode && info.regionCode ? `${info.languageCode}-${info.regionCode}` : 'en-US';
  const launches = random.int(3, 400);
  const lastLaunch = new Date(Date.now() - random.int(60, 3 * 86_400) * 1000).toISOString();
  const standard = {
    AppleLanguages: [language, 'en'],
    AppleLocale: info.localeIdentifier ?? 'en_US',
    hasCompletedOnboarding: launches > 5,
    launchCount: launches,
    lastLaunchDate: lastLaunch,
    lastSeenAppVersion: info.clientAppVersion ?? '1.0.0',
    notificationsAuthorized: random.chance(0.7),
    preferredColorScheme: random.pick(['system', 'light', 'dark']),
    featureFlags: { newCheckout: random.chance(0.5), compactCards: random.chance(0.5), remoteConfigVersion: random.int(10, 60) },
    ...APP_DEFAULTS[info.bundleId ?? '']?.(random),
  };
  const groups: UserDefaultsGroup[] = [{ name: STANDARD_USER_DEFAULTS_SUITE, entries: Object.entries(standard).map(([key, value]) => ({ key, value })) }];
  if (info.bundleId) {
    groups.push({
      name: `group.${info.bundleId}`,
      entries: [
        { key: 'widgetLastRefresh', value: lastLaunch },
        { key: 'widgetDisplayMode', value: random.pick(['summary', 'detailed']) },
        { key: 'sharedSessionActive', value: random.chance(0.8) },
      ],
    });
  }
  return groups;
}

/**
 * A device's own user defaults store: in memory, so that virtual devices neither share one file
 * nor write into the user's configuration directory; an iOS device's starts with its defaults.
 */
export function userDefaultsStorage(info: DeviceInfo, installId: string): KeyValueStorage {
  const storage = memoryStorage();
  if (info.platform === 'ios') void storage.setItem(USER_DEFAULTS_KEY, JSON.stringify(iosUserDefaults(info, installId)));
  return storage;
}
