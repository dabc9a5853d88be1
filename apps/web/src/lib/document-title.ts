import { useEffect } from 'react';

/** Names the browser tab after the screen: "Devices · Spyglass". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Spyglass` : 'Spyglass';
  }, [title]);
}
