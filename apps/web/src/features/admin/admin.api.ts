import { ADMIN_LIST, ADMIN_MESSAGES, AdminUsersResponse, SuccessBody, type AdminSortKey, type AdminUserPatch } from '@spyglass/protocol';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api, errorMessage } from '../../lib/api';

export interface AdminListParams {
  search: string;
  sort: AdminSortKey;
  order: 'asc' | 'desc';
  hideDemoUsers: boolean;
}

const ADMIN_USERS_KEY = ['admin-users'] as const;

/** The admin list, page by page as the table scrolls (server-side search, sort and exclusions). */
export function useAdminUsers(params: AdminListParams) {
  return useInfiniteQuery({
    queryKey: [...ADMIN_USERS_KEY, params],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => api.get('/admin/users', AdminUsersResponse, {
      query: {
        search: params.search || undefined, sort: params.sort, order: params.order, hideDemoUsers: params.hideDemoUsers,
        offset: pageParam, limit: ADMIN_LIST.pageSize,
      },
      errorMessage: ADMIN_MESSAGES.loadFailed,
      signal,
    }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.users.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
}

/** Staff actions on an account: lock or unlock it, make it a free user. */
export function useAdminUserUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminUserPatch }) =>
      api.patch(`/admin/users/${encodeURIComponent(id)}`, patch, SuccessBody, { errorMessage: 'Failed to update user' }),
    onSuccess: (_answer, { patch }) => {
      if (patch.isLockedUser !== undefined) toast.success(patch.isLockedUser ? 'User locked' : 'User unlocked');
      if (patch.isFreeUser !== undefined) toast.success(patch.isFreeUser ? 'User is now a free user' : 'User is no longer a free user');
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to update user')),
  });
}
