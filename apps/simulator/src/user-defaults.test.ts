import { describe, expect, it } from 'vitest';
import { STANDARD_USER_DEFAULTS_SUITE } from '@spyglass/protocol/device';
import { deviceProfile } from './device-profiles';
import { createRandom } from './random';
import { iosUserDefaults, userDefaultsStorage } from './user-defaults';

describe('simulated user defaults', () => {
  const ios = deviceProfile(0, 'ios', createRandom(5));
  const android = deviceProfile(1, 'android', createRandom(5));

  it('gives an iOS app the standard suite with system and app keys, and its app group', () => {
    const groups = iosUserDefaults(ios, 'sim-1');
    expect(groups.map((g) => g.name)).toEqual([STANDARD_USER_DEFAULTS_SUITE, `group.${ios.bundleId}`]);
    const standard = new Map(groups[0]!.entries.map((e) => [e.key, e.value]));
    expect(standard.get('AppleLocale')).toBe(ios.localeIdentifier);
    expect(standard.get('lastSeenAppVersion')).toBe(ios.clientAppVersion);
    expect(standard.size).toBeGreaterThan(10);
    // Every kind of value the view shows: strings, booleans, numbers, arrays and objects.
    const kinds = new Set([...standard.values()].map((v) => (Array.isArray(v) ? 'array' : typeof v)));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['array', 'boolean', 'number', 'object', 'string']));
  });

  it('keeps a device\'s defaults from run to run and differs between devices', () => {
    expect(iosUserDefaults(ios, 'sim-1')[0]!.entries.map((e) => e.key)).toEqual(iosUserDefaults(ios, 'sim-1')[0]!.entries.map((e) => e.key));
    const a = JSON.stringify(iosUserDefaults(ios, 'sim-1').map((g) => g.entries.filter((e) => e.key !== 'lastLaunchDate' && e.key !== 'widgetLastRefresh')));
    const b = JSON.stringify(iosUserDefaults(ios, 'sim-2').map((g) => g.entries.filter((e) => e.key !== 'lastLaunchDate' && e.key !== 'widgetLastRefresh')));
    expect(a).not.toBe(b);
  });

  it('fills the store the SDK reads for iOS devices only', async () => {
    expect(JSON.parse((await userDefaultsStorage(ios, 'sim-1').getItem('spyglass.userDefaults'))!)).toHaveLength(2);
    expect(await userDefaultsStorage(android, 'sim-2').getItem('spyglass.userDefaults')).toBeNull();
  });
});
