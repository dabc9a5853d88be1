import { curlFromItem, TOAST_DURATION_MS, type CapturedItem } from '@spyglass/protocol';
import { toast } from 'sonner';

/**
 * Copy as CURL (row menu of network items, spec 001 'Request list screen'): the command that
 * repeats the request, on the clipboard, then 'Copied to clipboard' (spec 000 §9: 3 s).
 * Pass the full item (`loadItem`): the list's compact item has no body. Answers the command, or
 * null when nothing was copied.
 */
export async function copyAsCurl(item: CapturedItem | Promise<CapturedItem>): Promise<string | null> {
  let command: string;
  try {
    const full = await item;
    if (full.type !== 'network') throw new Error('Only network requests can be copied as cURL');
    command = curlFromItem(full);
    await navigator.clipboard.writeText(command);
  } catch (error) {
    console.error('Copy as cURL failed', error);
    toast.error('Could not copy to clipboard', { duration: TOAST_DURATION_MS });
    return null;
  }
  toast.success('Copied to clipboard', { duration: TOAST_DURATION_MS });
  return command;
}
