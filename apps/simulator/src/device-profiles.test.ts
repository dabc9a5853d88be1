import { describe, expect, it } from 'vitest';
import { DeviceInfo, isSdkOutdated } from '@spyglass/protocol';
import { deviceProfile } from './device-profiles';
import { createRandom } from './random';

describe('deviceProfile', () => {
  it('makes valid, varied iOS and Android devices, some with an outdated SDK', () => {
    const random = createRandom(3);
    const devices = Array.from({ length: 40 }, (_, i) => deviceProfile(i, i % 2 ? 'android' : 'ios', random));
    for (const d of devices) expect(DeviceInfo.safeParse(d).success).toBe(true);
    expect(new Set(devices.map((d) => d.model)).size).toBeGreaterThan(6);
    expect(new Set(devices.map((d) => d.localeIdentifier)).size).toBeGreaterThan(3);
    expect(devices.filter((d) => d.platform === 'android').every((d) => d.manufacturer && d.densityDpi)).toBe(true);
    const outdated = devices.filter((d) => isSdkOutdated(d.platform as 'ios' | 'android', d.sdkVersion));
    expect(outdated.length).toBeGreaterThan(0);
    expect(outdated.length).toBeLessThan(devices.length / 2);
  });
});
