import type { FeatureFlags } from '@spyglass/protocol';

/**
 * The dashboard's views (spec 001 §2: the last path segment names the view, requests when none).
 * User Defaults (iOS only) joins this list with the feature that fills it. A view with a
 * `featureFlag` shows in the sidebar only when the profile has that flag (spec 002 §2).
 */
export const DEVICE_VIEWS = [
  { id: 'requests', label: 'Requests' },
  { id: 'mock-apis', label: 'Mock APIs', featureFlag: 'MOCK_APIS' },
] as const satisfies readonly { id: string; label: string; featureFlag?: keyof FeatureFlags }[];

export type DeviceViewId = (typeof DEVICE_VIEWS)[number]['id'];

/** The view a path segment names, or null when it names none (a 404). */
export function resolveDeviceView(segment: string | undefined): DeviceViewId | null {
  const id = segment ?? 'requests';
  return DEVICE_VIEWS.find((view) => view.id === id)?.id ?? null;
}

/** The address of a view: requests is the device's own address. */
export const deviceViewPath = (deviceId: string, view: DeviceViewId) =>
  view === 'requests' ? `/devices/${encodeURIComponent(deviceId)}` : `/devices/${encodeURIComponent(deviceId)}/${view}`;

/** The views the sidebar lists for a profile's feature flags. */
export function sidebarDeviceViews(flags: FeatureFlags | undefined) {
  return DEVICE_VIEWS.filter((view) => !('featureFlag' in view) || flags?.[view.featureFlag] === true);
}
