import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemCategory, PartialSettings, Settings } from '@spyglass/protocol';
import { useCallback, useEffect, useState } from 'react';
import { ACCOUNT_QUERY_KEY, type Account } from '../../../lib/account';
import { postSettings, useSettings } from '../../../lib/settings';
import { writeStoredProfile } from '../../../lib/storage';
import { resolveColumns, toColumnSettings, type TableColumn } from '../table/columns';
import { savesSettings, type InspectorMode } from './inspector-mode';

export type ViewMode = Settings['viewMode'];

export interface InspectorSettings {
  viewMode: ViewMode;
  setViewMode(mode: ViewMode): void;
  activeFilter: ItemCategory;
  setActiveFilter(filter: ItemCategory): void;
  /** Changes the filter on screen only: the guided tour's whole list is not the user's choice. */
  showActiveFilter(filter: ItemCategory): void;
  columns: TableColumn[];
  /** Changes the columns on screen only (while a column edge is dragged). */
  previewColumns(columns: TableColumn[]): void;
  /** Changes and saves the columns. */
  saveColumns(columns: TableColumn[]): void;
}

/**
 * The inspector's remembered choices (spec 001 §4: view mode, active filter, column width,
 * visibility and order are saved to settings, not in the public view). The change shows at once;
 * the profile cache follows so another screen reads it; a failed save is only logged (spec 001 §8:
 * column settings save failures have no user message).
 */
export function useInspectorSettings(mode: InspectorMode): InspectorSettings {
  const settings = useSettings();
  const persist = useQuietSettingsSave(savesSettings(mode));

  const [viewMode, setViewModeState] = useState<ViewMode>(settings.viewMode);
  const [activeFilter, setActiveFilterState] = useState<ItemCategory>(settings.activeFilter);
  const [columns, setColumns] = useState(() => resolveColumns(settings.columns));

  // The profile arrives or changes in another tab's save: follow it.
  useEffect(() => setViewModeState(settings.viewMode), [settings.viewMode]);
  useEffect(() => setActiveFilterState(settings.activeFilter), [settings.activeFilter]);
  useEffect(() => setColumns(resolveColumns(settings.columns)), [settings.columns]);

  const setViewMode = useCallback((next: ViewMode) => {
    setViewModeState(next);
    persist({ viewMode: next });
  }, [persist]);
  const setActiveFilter = useCallback((next: ItemCategory) => {
    setActiveFilterState(next);
    persist({ activeFilter: next });
  }, [persist]);
  const saveColumns = useCallback((next: TableColumn[]) => {
    setColumns(next);
    persist({ columns: toColumnSettings(next) });
  }, [persist]);

  return { viewMode, setViewMode, activeFilter, setActiveFilter, showActiveFilter: setActiveFilterState, columns, previewColumns: setColumns, saveColumns };
}

/** Saves a partial settings update without a user message; nothing at all when `enabled` is false. */
function useQuietSettingsSave(enabled: boolean): (patch: PartialSettings) => void {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: postSettings,
    onError: (error) => console.error('Failed to save the inspector settings', error),
  });
  return useCallback((patch: PartialSettings) => {
    if (!enabled) return;
    const account = queryClient.getQueryData<Account>(ACCOUNT_QUERY_KEY);
    if (account) {
      const updated: Account = { ...account, profile: { ...account.profile, settings: { ...account.profile.settings, ...patch } } };
      queryClient.setQueryData(ACCOUNT_QUERY_KEY, updated);
      writeStoredProfile(updated.profile);
    }
    mutate(patch);
  }, [enabled, mutate, queryClient]);
}
