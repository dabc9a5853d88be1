import { useQueryClient } from '@tanstack/react-query';
import { defaultSessionName, SESSION_MESSAGES } from '@spyglass/protocol';
import { Save } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { IconButton } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import type { RequestList } from '../requests/store/request-list';
import { idsToSave, TooManyToSave } from './ids-to-save';
import { createSession, SESSIONS_QUERY_KEY } from './sessions.api';

const figure = (n: number) => n.toLocaleString('en-US');

/**
 * The request list's Save Session button (spec 001 'Request list screen', §5). Saving the whole
 * list first loads the device's items not loaded yet: a toast shows 'Loading requests... N of M'
 * with Cancel, and the button stays busy until the session is saved.
 */
export function SaveSessionButton({ deviceId, list }: { deviceId: string; list: RequestList }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const running = useRef<AbortController | null>(null);
  // Leaving the device (or its list being replaced) cancels the loading, not a save already sent.
  useEffect(() => () => running.current?.abort(), [list]);

  const save = async () => {
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    let toastId: string | number | undefined;
    const cancel = { label: 'Cancel', onClick: () => controller.abort() };
    try {
      const ids = await idsToSave(list, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => {
          toastId = toast.loading(`Loading requests... ${figure(loaded)} of ${figure(Math.max(loaded, total))}`, { id: toastId, cancel });
        },
      });
      if (ids === null) {
        if (toastId !== undefined) toast.dismiss(toastId);
        return;
      }
      if (ids.length === 0) {
        toast.warning(SESSION_MESSAGES.nothingToSave, { id: toastId, cancel: undefined });
        return;
      }
      toastId = toast.loading(`Saving ${figure(ids.length)} ${ids.length === 1 ? 'request' : 'requests'}...`, { id: toastId, cancel: undefined });
      const session = await createSession({ deviceId, name: defaultSessionName(), requestIds: ids });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      toast.success(SESSION_MESSAGES.saved, {
        id: toastId,
        action: { label: 'Open', onClick: () => void navigate(`/sessions/${encodeURIComponent(session.id)}`) },
      });
    } catch (error) {
      const message = error instanceof TooManyToSave ? error.message : errorMessage(error, 'Failed to save session');
      toast.error(message, { id: toastId, cancel: undefined });
    } finally {
      if (running.current === controller) running.current = null;
      setBusy(false);
    }
  };

  return (
    <IconButton label="Save session" onClick={() => void save()} disabled={busy} aria-busy={busy || undefined}>
      {busy ? <Spinner size={15} /> : <Save size={15} aria-hidden="true" />}
    </IconButton>
  );
}
