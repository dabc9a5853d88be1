import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { MessageResponse, Profile, SuccessBody } from '@spyglass/protocol';
import { api } from '../../lib/api';

const ProfileResponse = z.object({ profile: Profile });
const VersionResponse = z.object({ version: z.string() });

export const updateEmail = (email: string) =>
  api.post('/user/update-email', { email }, ProfileResponse, { errorMessage: 'Failed to update email' }).then((r) => r.profile);

export const changePassword = (currentPassword: string, newPassword: string) =>
  api.post('/auth/change-password', { currentPassword, newPassword }, MessageResponse, { errorMessage: 'Failed to change password' });

export const deleteAccount = (userId: string) =>
  api.delete(`/user/${encodeURIComponent(userId)}`, SuccessBody, { errorMessage: 'Failed to delete account' });

export const getServerVersion = () => api.get('/version/server', VersionResponse).then((r) => r.version);

export function useServerVersion() {
  return useQuery({ queryKey: ['server-version'], queryFn: getServerVersion, staleTime: Infinity });
}
