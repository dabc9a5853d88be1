import { describe, expect, it } from 'vitest';
import { deviceViewPath, isViewOnPlatform, resolveDeviceView, sidebarDeviceViews } from './device-views';

describe('device views', () => {
  it('opens requests when nothing follows the device id', () => {
    expect(resolveDeviceView(undefined)).toBe('requests');
    expect(resolveDeviceView('requests')).toBe('requests');
  });

  it('names no view for an unknown segment', () => {
    expect(resolveDeviceView('nope')).toBeNull();
    expect(resolveDeviceView('')).toBeNull();
  });

  it('addresses requests as the device itself, with the id escaped', () => {
    expect(deviceViewPath('sim-1', 'requests')).toBe('/devices/sim-1');
    expect(deviceViewPath('a/b', 'requests')).toBe('/devices/a%2Fb');
  });

  it('names the mock routes view, listed in the sidebar only with the MOCK_APIS flag', () => {
    expect(resolveDeviceView('mock-apis')).toBe('mock-apis');
    expect(deviceViewPath('sim-1', 'mock-apis')).toBe('/devices/sim-1/mock-apis');
    expect(sidebarDeviceViews({ MOCK_APIS: true, USER_DEFAULTS: false }).map((v) => v.id)).toEqual(['requests', 'mock-apis']);
    expect(sidebarDeviceViews({ MOCK_APIS: false, USER_DEFAULTS: true }).map((v) => v.id)).toEqual(['requests']);
  });

  it('lists User Defaults with the USER_DEFAULTS flag, for iOS devices only', () => {
    expect(resolveDeviceView('user-defaults')).toBe('user-defaults');
    expect(sidebarDeviceViews({ MOCK_APIS: false, USER_DEFAULTS: true }, 'ios').map((v) => v.id)).toEqual(['requests', 'user-defaults']);
    expect(sidebarDeviceViews({ MOCK_APIS: false, USER_DEFAULTS: true }, 'android').map((v) => v.id)).toEqual(['requests']);
    expect(sidebarDeviceViews({ MOCK_APIS: false, USER_DEFAULTS: false }, 'ios').map((v) => v.id)).toEqual(['requests']);
  });

  it('offers User Defaults on iOS devices only, whatever the address asks for', () => {
    expect(isViewOnPlatform('user-defaults', 'ios')).toBe(true);
    for (const platform of ['android', 'web', 'node', undefined] as const) expect(isViewOnPlatform('user-defaults', platform)).toBe(false);
    for (const platform of ['ios', 'android', 'web', 'node'] as const) {
      expect(isViewOnPlatform('requests', platform)).toBe(true);
      expect(isViewOnPlatform('mock-apis', platform)).toBe(true);
    }
  });
});
