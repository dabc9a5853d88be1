import { useMutation, useQueryClient } from '@tanstack/react-query';
import { defaultSessionName, SESSION_MESSAGES } from '@spyglass/protocol';
import { Save } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { IconButton } from '../../ui/button';
import type { ListStore } from '../requests/store/list-store';
import { createSession, SESSIONS_QUERY_KEY } from './sessions.api';

/** The ids a saved session holds: the selection when there is one, else every item the list shows (filters applied). */
export function idsToSave(store: ListStore): string[] {
  if (store.selectionCount > 0) return store.selectedItems().map((item) => item.id);
  return Array.from(store.rows(), (item) => item.id);
}

/** The request list's Save Session button (spec 001 'Request list screen', §5). */
export function SaveSessionButton({ deviceId, store }: { deviceId: string; store: ListStore }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const save = useMutation({
    mutationFn: (requestIds: string[]) => createSession({ deviceId, name: defaultSessionName(), requestIds }),
    onSuccess: (session) => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      toast.success(SESSION_MESSAGES.saved, {
        action: { label: 'Open', onClick: () => void navigate(`/sessions/${encodeURIComponent(session.id)}`) },
      });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to save session')),
  });

  const onClick = () => {
    const ids = idsToSave(store);
    if (ids.length === 0) {
      toast.warning(SESSION_MESSAGES.nothingToSave);
      return;
    }
    save.mutate(ids);
  };

  return (
    <IconButton label="Save session" onClick={onClick} disabled={save.isPending} aria-busy={save.isPending || undefined}>
      <Save size={15} aria-hidden="true" />
    </IconButton>
  );
}
