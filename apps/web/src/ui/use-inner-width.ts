import { useLayoutEffect, useState, type RefObject } from 'react';

/** The inner width of a scrolling box (without its border and scroll bar), followed as the page resizes. */
export function useInnerWidth(box: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(Number.POSITIVE_INFINITY);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}
