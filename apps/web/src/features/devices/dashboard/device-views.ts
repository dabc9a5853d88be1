/**
 * The dashboard's views (spec 001 §2: the last path segment names the view, requests when none).
 * Mock APIs and User Defaults (iOS only) join this list with the features that fill them.
 */
export const DEVICE_VIEWS = [{ id: 'requests', label: 'Requests' }] as const;

export type DeviceViewId = (typeof DEVICE_VIEWS)[number]['id'];

/** The view a path segment names, or null when it names none (a 404). */
export function resolveDeviceView(segment: string | undefined): DeviceViewId | null {
  const id = segment ?? 'requests';
  return DEVICE_VIEWS.find((view) => view.id === id)?.id ?? null;
}

/** The address of a view: requests is the device's own address. */
export const deviceViewPath = (deviceId: string, view: DeviceViewId) =>
  view === 'requests' ? `/devices/${encodeURIComponent(deviceId)}` : `/devices/${encodeURIComponent(deviceId)}/${view}`;
