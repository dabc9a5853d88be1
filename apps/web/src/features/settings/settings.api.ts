import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { MessageResponse, SuccessBody, UpdateEmailResponse } from '@spyglass/protocol';
import { api } from '../../lib/api';

const VersionResponse = z.object({ version: z.string() });

/** What proves the owner asks: the current password, or a Google ID token from a sign-in made just now. */
export type EmailChangeProof = { currentPassword: string } | { googleToken: string };

export const updateEmail = (email: string, proof: EmailChangeProof) =>
  api.post('/user/update-email', { email, ...proof }, UpdateEmailResponse, { errorMessage: 'Failed to update email' });

export const changePassword = (currentPassword: string, newPassword: string) =>
  api.post('/auth/change-password', { currentPassword, newPassword }, MessageResponse, { errorMessage: 'Failed to change password' });

export const deleteAccount = (userId: string) =>
  api.delete(`/user/${encodeURIComponent(userId)}`, SuccessBody, { errorMessage: 'Failed to delete account' });

export const getServerVersion = () => api.get('/version/server', VersionResponse).then((r) => r.version);

export function useServerVersion() {
  return useQuery({ queryKey: ['server-version'], queryFn: getServerVersion, staleTime: Infinity });
}
