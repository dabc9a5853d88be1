import type { CompactItem } from '@spyglass/protocol';
import { useEffect, useState } from 'react';
import { SessionItems } from './session-items';

/**
 * The items of a session streamed from `open` (pages of the owner's API, or the public data.json)
 * for as long as the page shows it; a new `key` starts over. Null until the first render's effect.
 */
export function useSessionItems(key: string | null, open: (signal: AbortSignal) => AsyncIterable<readonly CompactItem[]>): SessionItems | null {
  const [items, setItems] = useState<SessionItems | null>(null);
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const next = new SessionItems();
    setItems(next);
    void next.consume(open(controller.signal), controller.signal);
    return () => controller.abort();
    // `open` is read once per key: the session it streams is named by the key.
  }, [key]);
  return items;
}
