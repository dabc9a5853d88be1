import { useLayoutEffect, useState, type RefObject } from 'react';

const asIs = (width: number) => width;

/** The inner width of a scrolling box (without its border and scroll bar), followed as the page resizes. */
export function useInnerWidth(box: RefObject<HTMLElement | null>): number {
  return useInnerWidthAs(box, asIs);
}

/**
 * `of(width)` for the box's inner width, measured before paint (what a box shows for its first
 * width never flashes) and followed as the page resizes. A component that needs only a class of
 * widths (a layout) re-renders when the class changes, not at every pixel of a resize. `of` must
 * keep its identity across renders (a module-level function).
 */
export function useInnerWidthAs<T>(box: RefObject<HTMLElement | null>, of: (width: number) => T): T {
  const [value, setValue] = useState(() => of(Number.POSITIVE_INFINITY));
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setValue(of(element.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box, of]);
  return value;
}
