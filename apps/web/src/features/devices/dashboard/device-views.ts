import type { DevicePlatform, FeatureFlags } from '@spyglass/protocol';

/**
 * The dashboard's views (spec 001 §2: the last path segment names the view, requests when none).
 * A view with a `featureFlag` shows in the sidebar only when the profile has that flag, and one
 * with `platforms` only for devices of those platforms (spec 002 §2: User Defaults, iOS only).
 */
export const DEVICE_VIEWS = [
  { id: 'requests', label: 'Requests' },
  { id: 'mock-apis', label: 'Mock APIs', featureFlag: 'MOCK_APIS' },
  { id: 'user-defaults', label: 'User Defaults', featureFlag: 'USER_DEFAULTS', platforms: ['ios'] },
] as const satisfies readonly { id: string; label: string; featureFlag?: keyof FeatureFlags; platforms?: readonly DevicePlatform[] }[];

export type DeviceViewId = (typeof DEVICE_VIEWS)[number]['id'];

/** The view a path segment names, or null when it names none (a 404). */
export function resolveDeviceView(segment: string | undefined): DeviceViewId | null {
  const id = segment ?? 'requests';
  return DEVICE_VIEWS.find((view) => view.id === id)?.id ?? null;
}

/** The address of a view: requests is the device's own address. */
export const deviceViewPath = (deviceId: string, view: DeviceViewId) =>
  view === 'requests' ? `/devices/${encodeURIComponent(deviceId)}` : `/devices/${encodeURIComponent(deviceId)}/${view}`;

/** The platforms a view works on, when it is not all of them (User Defaults: iOS only). */
export function viewPlatforms(id: DeviceViewId): readonly DevicePlatform[] | undefined {
  const view = DEVICE_VIEWS.find((v) => v.id === id);
  return view && 'platforms' in view ? view.platforms : undefined;
}

/** Whether a device of `platform` can show the view (an address typed by hand can name any view). */
export function isViewOnPlatform(id: DeviceViewId, platform: DevicePlatform | undefined): boolean {
  const platforms = viewPlatforms(id);
  return platforms === undefined || (platform !== undefined && platforms.includes(platform));
}

/** The views the sidebar lists for a profile's feature flags and a device's platform. */
export function sidebarDeviceViews(flags: FeatureFlags | undefined, platform?: DevicePlatform) {
  return DEVICE_VIEWS.filter((view) => (!('featureFlag' in view) || flags?.[view.featureFlag] === true) && isViewOnPlatform(view.id, platform));
}
