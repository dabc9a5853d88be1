import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UserDefaultsResponse, type UserDefaultsGroup, type UserDefaultValue } from '@spyglass/protocol';
import { api } from '../../lib/api';
import { useLiveMessage } from '../../lib/live';

/** The user-defaults calls of spec 002 §7 with the service messages of spec 002 §8. */

export const userDefaultsKey = (deviceId: string) => ['user-defaults', deviceId] as const;

/** GET /user-defaults/{deviceId}: read from the device each time the view opens (it is the device's, not ours). */
export function useUserDefaults(deviceId: string) {
  return useQuery({
    queryKey: userDefaultsKey(deviceId),
    queryFn: async () => (await api.get(`/user-defaults/${encodeURIComponent(deviceId)}`, UserDefaultsResponse, {
      errorMessage: 'Failed to fetch user defaults',
    })).groups,
    refetchOnMount: 'always',
    retry: false,
  });
}

/** Spec 002 §4: user_defaults_changed refreshes the view (the app, or another tab, changed them). */
export function useUserDefaultsSync(deviceId: string, onChanged: (groups: UserDefaultsGroup[]) => void): void {
  const queryClient = useQueryClient();
  useLiveMessage('user_defaults_changed', (message) => {
    if (message.deviceId !== deviceId) return;
    queryClient.setQueryData(userDefaultsKey(deviceId), message.groups);
    onChanged(message.groups);
  });
}

export const setUserDefault = (deviceId: string, name: string, key: string, value: UserDefaultValue) =>
  api.post('/user-defaults', { deviceId, name, key, value }, UserDefaultsResponse, { errorMessage: 'Failed to create user default' });

export const renameUserDefault = (deviceId: string, name: string, oldKey: string, newKey: string, value: UserDefaultValue) =>
  api.put('/user-defaults', { deviceId, name, oldKey, newKey, value }, UserDefaultsResponse, { errorMessage: 'Failed to update user default' });

export const deleteUserDefault = (deviceId: string, name: string, key: string) =>
  api.delete('/user-defaults', UserDefaultsResponse, { body: { deviceId, name, key }, errorMessage: 'Failed to delete user default' });
