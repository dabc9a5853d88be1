import { useEffect, useState, type RefObject } from 'react';
import { AREA_RESIZE_DEBOUNCE_MS } from './panel-height';

/**
 * The height of the element the panel sits in (the content area its 80 % refers to), followed
 * with a ResizeObserver debounced by 50 ms (spec 001 §9).
 */
export function useAreaHeight(panel: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(() => window.innerHeight);
  useEffect(() => {
    const area = panel.current?.parentElement;
    if (!area) return;
    setHeight(area.clientHeight);
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setHeight(area.clientHeight), AREA_RESIZE_DEBOUNCE_MS);
    });
    observer.observe(area);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [panel]);
  return height;
}
