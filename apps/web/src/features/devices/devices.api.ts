import { useQuery } from '@tanstack/react-query';
import { Device, SdkVersionResponse, type Platform } from '@spyglass/protocol';
import { z } from 'zod';
import { api } from '../../lib/api';

export const DEVICES_QUERY_KEY = ['devices'] as const;

export const fetchDevices = () => api.get('/devices', z.array(Device), { errorMessage: 'Failed to load devices' });

/** The account's devices (spec 001 §7 GET /devices), kept current by the live connection (device-live-sync.ts). */
export function useDevices() {
  return useQuery({ queryKey: DEVICES_QUERY_KEY, queryFn: fetchDevices });
}

/** Latest released mobile SDK (no auth), shown when a device's SDK is outdated. */
export const fetchLatestSdkVersion = (platform: Platform) =>
  api.get(`/version/${platform}-sdk-version`, SdkVersionResponse, { errorMessage: 'Failed to get version' }).then((r) => r.version);

export function useLatestSdkVersion(platform: Platform, enabled = true) {
  return useQuery({
    queryKey: ['sdk-version', platform],
    queryFn: () => fetchLatestSdkVersion(platform),
    enabled,
    staleTime: Infinity,
  });
}
