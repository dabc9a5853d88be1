import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Session } from '@spyglass/protocol';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { sessionQueryKey, SESSIONS_QUERY_KEY, updateSession } from './sessions.api';

/**
 * Turns a session's sharing on or off (PUT /v1/sessions/{id} {isShared}); turning it on opens
 * the share modal with the answered shareUrl (spec 001 §4).
 */
export function useSessionShare() {
  const queryClient = useQueryClient();
  const [modalUrl, setModalUrl] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ id, isShared }: { id: string; isShared: boolean }) => updateSession(id, { isShared }),
    onSuccess: (session) => {
      queryClient.setQueryData<Session>(sessionQueryKey(session.id), session);
      queryClient.setQueryData<Session[]>(SESSIONS_QUERY_KEY, (list) => list?.map((s) => (s.id === session.id ? session : s)));
      if (session.isShared && session.shareUrl) setModalUrl(session.shareUrl);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to update session')),
  });
  return {
    setShared: (id: string, isShared: boolean) => mutation.mutate({ id, isShared }),
    pendingId: mutation.isPending ? mutation.variables?.id ?? null : null,
    modalUrl,
    closeModal: () => setModalUrl(null),
  };
}
