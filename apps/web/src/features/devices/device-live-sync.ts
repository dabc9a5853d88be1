import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIEWER_CLOSE_CODES, type Device } from '@spyglass/protocol';
import { toast } from 'sonner';
import { ACCOUNT_QUERY_KEY } from '../../lib/account';
import { LOCAL_RESYNC_REASON, useLiveMessage, useLiveState } from '../../lib/live';
import { applyDeviceStatus, removeDevice, replaceDevice } from './device-cache';
import { DEVICES_QUERY_KEY, useDevices } from './devices.api';

/** Close codes of a viewer whose token was revoked or whose account was locked. */
const ACCOUNT_CLOSE_CODES = new Set<number>([VIEWER_CLOSE_CODES.unauthorized, VIEWER_CLOSE_CODES.locked]);

/**
 * Keeps the device list (TanStack Query cache) current from the live connection while the shell is
 * shown, on every screen: statuses, updates, deletions, and new devices with a 'New Device added'
 * toast (spec 000 §4.6).
 */
export function useDeviceLiveSync(): void {
  const queryClient = useQueryClient();
  const live = useLiveState();
  // Held on every screen, so that a device the list does not know yet is recognised as new.
  useDevices();

  // What happened while no connection was open is only in the API: each (re)connect reloads the
  // list, and a refused token or a locked account shows up on the account's next fetch.
  useLiveMessage('init', () => void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY }));
  // A viewer that read too slowly missed device messages too, not only items.
  useLiveMessage('resync', (message) => {
    if (message.reason !== LOCAL_RESYNC_REASON) void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
  });
  useEffect(() => {
    if (live.closeCode !== null && ACCOUNT_CLOSE_CODES.has(live.closeCode)) void queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
  }, [live.closeCode, queryClient]);

  // Spec 001 §8: a device refused at the account's device limit (it cannot tell anyone itself).
  useLiveMessage('device_limit_reached', (message) => void toast.error(message.message, { id: 'device-limit' }));

  useLiveMessage('device_status', (message) => {
    const devices = queryClient.getQueryData<Device[]>(DEVICES_QUERY_KEY);
    if (!devices) return;
    const result = applyDeviceStatus(devices, message);
    if (result.unknown) {
      void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
    } else {
      queryClient.setQueryData<Device[]>(DEVICES_QUERY_KEY, result.devices);
    }
    if ((result.added || result.unknown) && message.online) toast.success('New Device added', { description: message.name });
  });
  useLiveMessage('device_update', (message) => {
    queryClient.setQueryData<Device[]>(DEVICES_QUERY_KEY, (devices) => devices && replaceDevice(devices, message.device));
  });
  useLiveMessage('device_deleted', (message) => {
    queryClient.setQueryData<Device[]>(DEVICES_QUERY_KEY, (devices) => devices && removeDevice(devices, message.deviceId));
  });
}
