import { Check, Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Dialog } from '../../ui/dialog';
import { IconButton } from '../../ui/button';

/** Copies a share link; 'Copied to clipboard' (spec 001 §8). */
export async function copyShareUrl(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
  } catch (error) {
    console.error('Copying to the clipboard failed', error);
    return;
  }
  toast.success('Copied to clipboard');
}

/** The copy-URL icon shown beside a shared session's toggle. */
export function CopyShareUrlButton({ url }: { url: string }) {
  return (
    <IconButton label="Copy share link" onClick={() => void copyShareUrl(url)}>
      <Copy size={14} aria-hidden="true" />
    </IconButton>
  );
}

/** Shown when sharing is turned on (spec 001 §4): the public link with a copy icon. */
export function ShareModal({ url, onOpenChange }: { url: string | null; onOpenChange(open: boolean): void }) {
  return (
    <Dialog
      open={url !== null}
      onOpenChange={onOpenChange}
      title="Session shared"
      description="Anyone with this link can view the session, read-only, without an account."
      size="md"
    >
      {url && (
        <div className="share-url">
          <Check size={14} aria-hidden="true" className="share-url-ok" />
          <input className="input share-url-input" readOnly value={url} aria-label="Share link" onFocus={(event) => event.currentTarget.select()} />
          <CopyShareUrlButton url={url} />
        </div>
      )}
    </Dialog>
  );
}
