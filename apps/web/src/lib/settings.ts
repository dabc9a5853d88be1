import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_SETTINGS, SettingsResponse, type PartialSettings, type Settings } from '@spyglass/protocol';
import { toast } from 'sonner';
import { api } from './api';
import { ACCOUNT_QUERY_KEY, type Account } from './account';
import { useAuth } from './auth';
import { writeStoredProfile } from './storage';

export const postSettings = (settings: PartialSettings) =>
  api.post('/user/settings', { settings }, SettingsResponse, { errorMessage: 'Failed to save settings' }).then((r) => r.settings);

/** The signed-in user's settings (the defaults before the profile arrives). */
export function useSettings(): Settings {
  return useAuth().profile?.settings ?? DEFAULT_SETTINGS;
}

/**
 * Saves a partial settings update (spec 000 §4.7) for the shell's own controls: the change shows
 * at once, the stored profile follows (main.tsx reads the theme from it before the first paint),
 * and a refusal puts the previous settings back with the catalogue's message.
 */
export function useUpdateSettings(): (patch: PartialSettings) => void {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: postSettings,
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: ACCOUNT_QUERY_KEY });
      const previous = queryClient.getQueryData<Account>(ACCOUNT_QUERY_KEY);
      if (previous) setSettings(previous, { ...previous.profile.settings, ...patch });
      return { previous };
    },
    onError: (error, _patch, context) => {
      console.error('Failed to save settings', error);
      if (context?.previous) setSettings(context.previous, context.previous.profile.settings);
      toast.error('Failed to save settings');
    },
  });

  function setSettings(account: Account, settings: Settings): void {
    const next: Account = { ...account, profile: { ...account.profile, settings } };
    queryClient.setQueryData<Account>(ACCOUNT_QUERY_KEY, next);
    writeStoredProfile(next.profile);
  }

  return mutation.mutate;
}
