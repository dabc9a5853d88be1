import { useCallback, useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceColumnSetting } from '@spyglass/protocol';
import { ACCOUNT_QUERY_KEY, type Account } from '../../lib/account';
import { postSettings, useSettings } from '../../lib/settings';
import { writeStoredProfile } from '../../lib/storage';
import { resolveDeviceColumns, type DeviceColumn } from './device-columns';

/**
 * The device list's columns from the `deviceColumns` setting. `preview` changes them on screen
 * only (while a column is dragged wider); `save` also stores them. A failed save is only logged
 * (spec 001 §8: column settings save failures have no user message).
 */
export function useDeviceColumns(): { columns: DeviceColumn[]; preview(columns: DeviceColumn[]): void; save(columns: DeviceColumn[]): void } {
  const saved = useSettings().deviceColumns;
  const [columns, setColumns] = useState(() => resolveDeviceColumns(saved));
  useEffect(() => setColumns(resolveDeviceColumns(saved)), [saved]);

  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (deviceColumns: DeviceColumnSetting[]) => postSettings({ deviceColumns }),
    onError: (error) => console.error('Failed to save the device columns', error),
  });
  const { mutate } = mutation;

  const save = useCallback((next: DeviceColumn[]) => {
    setColumns(next);
    const deviceColumns = next.map(({ id, label, isVisible, width }) => ({ id, label, isVisible, width }));
    const account = queryClient.getQueryData<Account>(ACCOUNT_QUERY_KEY);
    if (account) {
      const updated: Account = { ...account, profile: { ...account.profile, settings: { ...account.profile.settings, deviceColumns } } };
      queryClient.setQueryData(ACCOUNT_QUERY_KEY, updated);
      writeStoredProfile(updated.profile);
    }
    mutate(deviceColumns);
  }, [mutate, queryClient]);

  return { columns, preview: setColumns, save };
}
