import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Device, DeviceCommandResponse, SuccessBody, type FeatureToggles } from '@spyglass/protocol';
import { toast } from 'sonner';
import { api } from '../../../lib/api';
import { useLiveMessage } from '../../../lib/live';
import { applyDeviceStatus, removeDevice, replaceDevice } from '../device-cache';
import { DEVICES_QUERY_KEY } from '../devices.api';

/** Below the list's key, so that the live connection's reload of the list (on each connect) reloads it too. */
export const deviceQueryKey = (deviceId: string) => [...DEVICES_QUERY_KEY, deviceId] as const;

const path = (deviceId: string, rest = '') => `/devices/${encodeURIComponent(deviceId)}${rest}`;

/** Spec 001 §8: Device not found (404) or Failed to load device. */
export const fetchDevice = (deviceId: string) => api.get(path(deviceId), Device, { errorMessage: 'Failed to load device' });

/**
 * One device (GET /devices/{id}), shown at once from the device list when it holds it, and kept
 * current by the live connection while the dashboard is open.
 */
export function useDevice(deviceId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: deviceQueryKey(deviceId),
    queryFn: () => fetchDevice(deviceId),
    placeholderData: () => queryClient.getQueryData<Device[]>(DEVICES_QUERY_KEY)?.find((d) => d.id === deviceId),
  });

  const update = (change: (device: Device) => Device | undefined) =>
    queryClient.setQueryData<Device>(deviceQueryKey(deviceId), (device) => device && change(device));
  useLiveMessage('device_status', (message) => {
    if (message.deviceId === deviceId) update((device) => applyDeviceStatus([device], message).devices[0]);
  });
  useLiveMessage('device_update', (message) => {
    if (message.device.id === deviceId) update(() => message.device);
  });
  return query;
}

/** Puts a device into the dashboard's cache and the device list alike. */
function storeDevice(queryClient: ReturnType<typeof useQueryClient>, device: Device): void {
  queryClient.setQueryData<Device>(deviceQueryKey(device.id), device);
  queryClient.setQueryData<Device[]>(DEVICES_QUERY_KEY, (devices) => devices && replaceDevice(devices, device));
}

/**
 * Spec 001 §4: a feature toggle flips at once and saves the whole device (PUT /devices/{id});
 * a failed save puts the switch back. Toasts 'Device updated' / 'Failed to update device'.
 */
export function useSaveFeatureToggles(deviceId: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['device-save', deviceId];
  // With switches flipped in quick succession, an earlier answer would undo a later flip on screen.
  const isLatestSave = () => queryClient.isMutating({ mutationKey }) <= 1;
  return useMutation({
    mutationKey,
    mutationFn: (device: Device) => api.put(path(deviceId), device, Device, { errorMessage: 'Failed to update device' }),
    onMutate: async (device: Device) => {
      await queryClient.cancelQueries({ queryKey: deviceQueryKey(deviceId), exact: true });
      const previous = queryClient.getQueryData<Device>(deviceQueryKey(deviceId));
      storeDevice(queryClient, device);
      return { previous };
    },
    onSuccess: (device) => {
      if (isLatestSave()) storeDevice(queryClient, device);
    },
    onError: (_error, _device, context) => {
      if (isLatestSave() && context?.previous) storeDevice(queryClient, context.previous);
      else void queryClient.invalidateQueries({ queryKey: deviceQueryKey(deviceId), exact: true });
    },
  });
}

/**
 * POST /devices/{id}/breakpoint (spec 001 §7, 002 §7): the device profile's breakpoint switch. The
 * server sends it to the device at once (an offline one gets it in its next welcome).
 */
export function useSaveBreakpoint(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (breakpointEnabled: boolean) => api.post(path(deviceId, '/breakpoint'), { breakpointEnabled }, Device, { errorMessage: 'Failed to update device' }),
    onSuccess: (device) => storeDevice(queryClient, device),
  });
}

export const withToggle = (device: Device, toggle: keyof FeatureToggles, on: boolean): Device => ({
  ...device,
  featureToggles: { ...device.featureToggles, [toggle]: on },
});

/**
 * DELETE /devices/{id}: the device, its items and blobs are gone; the list forgets it at once.
 * The toasts belong to the mutation, not the button: the live connection's device_deleted may close
 * the dashboard (and unmount the button) before the answer arrives.
 */
export function useDeleteDevice(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(path(deviceId), SuccessBody, { errorMessage: 'Failed to delete device' }),
    onSuccess: () => {
      queryClient.setQueryData<Device[]>(DEVICES_QUERY_KEY, (devices) => devices && removeDevice(devices, deviceId));
      toast.success('Device deleted successfully');
    },
    onError: () => toast.error('Failed to delete device'),
  });
}

/** The sidebar's remote actions (spec 001 §2, §7), each answered once the device has run it. */
export const DEVICE_COMMANDS = {
  openDebugWindow: { path: '/open-spyglass-sheet', label: 'Open Debug Window', done: 'Debug window opened', failed: 'Failed to open debug window' },
  sendPing: { path: '/send-ping', label: 'Send Ping', done: 'Ping received by the device', failed: 'Failed to send ping' },
  takeScreenshot: { path: '/take-screenshot', label: 'Take Screenshot', done: 'Screenshot taken', failed: 'Failed to take screenshot' },
} as const;
export type DeviceCommand = keyof typeof DEVICE_COMMANDS;

export const runDeviceCommand = (deviceId: string, command: DeviceCommand) => {
  const { path: rest, failed } = DEVICE_COMMANDS[command];
  return api.get(path(deviceId, rest), DeviceCommandResponse, { errorMessage: failed });
};
