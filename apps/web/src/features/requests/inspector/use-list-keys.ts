import { useEffect, useRef } from 'react';
import type { InspectorMode } from './inspector-mode';
import { listShortcut, type ListShortcut } from './list-shortcuts';

/**
 * The request list's keys (spec 001 §4, §5) wherever the focus is on the page, except where
 * typing or another widget owns them. `run` answers whether it acted (then the browser's own
 * action, such as selecting the page's text on Ctrl+A, is prevented).
 */
export function useListKeys(mode: InspectorMode, run: (shortcut: ListShortcut) => boolean): void {
  const latest = useRef({ mode, run });
  useEffect(() => {
    latest.current = { mode, run };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const shortcut = listShortcut(event, latest.current.mode);
      if (shortcut && latest.current.run(shortcut)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
