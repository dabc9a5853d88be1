import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnSetting } from '@spyglass/protocol';
import { useCallback, useEffect, useState } from 'react';
import { ACCOUNT_QUERY_KEY, type Account } from '../../lib/account';
import { postSettings, useSettings } from '../../lib/settings';
import { writeStoredProfile } from '../../lib/storage';
import { ADMIN_COLUMNS_LAYOUT, adminColumnSettings, resolveAdminColumns, type AdminColumn } from './admin-columns';

/**
 * The admin list's columns from the `adminColumns` setting, kept as the device list keeps its own
 * (features/devices/use-device-columns.ts): `preview` changes them on screen only (while a column
 * is dragged wider), `save` also stores them in the profile; a failed save is only logged. Columns
 * saved on an earlier layout of default widths are brought to the current one; `save` stores the
 * layout's number with them, so that every width it stores from then on stands.
 */
export function useAdminColumns(): { columns: AdminColumn[]; preview(columns: AdminColumn[]): void; save(columns: AdminColumn[]): void } {
  const { adminColumns: saved, adminColumnsLayout: layout } = useSettings();
  const [columns, setColumns] = useState(() => resolveAdminColumns(saved, layout));
  useEffect(() => setColumns(resolveAdminColumns(saved, layout)), [saved, layout]);

  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: (adminColumns: ColumnSetting[]) => postSettings({ adminColumns, adminColumnsLayout: ADMIN_COLUMNS_LAYOUT }),
    onError: (error) => console.error('Failed to save the admin columns', error),
  });

  const save = useCallback((next: AdminColumn[]) => {
    setColumns(next);
    const adminColumns = adminColumnSettings(next);
    const account = queryClient.getQueryData<Account>(ACCOUNT_QUERY_KEY);
    if (account) {
      const updated: Account = { ...account, profile: { ...account.profile, settings: { ...account.profile.settings, adminColumns, adminColumnsLayout: ADMIN_COLUMNS_LAYOUT } } };
      queryClient.setQueryData(ACCOUNT_QUERY_KEY, updated);
      writeStoredProfile(updated.profile);
    }
    mutate(adminColumns);
  }, [mutate, queryClient]);

  return { columns, preview: setColumns, save };
}
