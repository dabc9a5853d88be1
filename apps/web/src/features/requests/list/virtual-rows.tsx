import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useReducer, useRef, useState, type CSSProperties, type Key, type ReactNode, type Ref, type RefObject } from 'react';
import { OVERSCAN, ROW_HEIGHT } from './list-constants';
import { offsetForRow, rowRange, ScaledScroll, type RowRange } from './scaled-scroll';

export interface VirtualRowsHandle {
  scrollToIndex(index: number, align?: 'start' | 'center' | 'end' | 'auto'): void;
  /** Moves by `delta` px of the list (keeps the reader's rows in place when rows are added above). */
  scrollBy(delta: number): void;
  scrollToEnd(): void;
  /** The viewport's top, in px of the list. */
  getOffset(): number;
  isAtEnd(): boolean;
  element(): HTMLDivElement | null;
}

export interface VirtualRowsScroll {
  offset: number;
  /** The horizontal scroll position, read with the vertical one (a header can follow it without a read of its own). */
  left: number;
  atStart: boolean;
  atEnd: boolean;
}

export interface VirtualRowsProps {
  count: number;
  /** The row's content; the row box (height, position) is VirtualRows'. Keep it cheap or memoised. */
  renderRow: (index: number) => ReactNode;
  /** A stable key per row (the item id), so that rows keep their DOM node when rows are added above. */
  rowKey?: (index: number) => Key;
  /**
   * Where the row with this key is now (-1: gone). With it, rows added or removed above the
   * viewport leave the rows being read in place.
   */
  indexOfKey?: (key: Key) => number;
  /**
   * At the very top, let rows added above come into view instead of keeping the rows in place:
   * right for the newest-first table (new items arrive on top), wrong for the console (rows
   * added above are older history). Default true.
   */
  revealAtTop?: boolean;
  rowHeight?: number;
  overscan?: number;
  className?: string;
  style?: CSSProperties;
  /** Label of the scroll region for assistive technology. */
  ariaLabel?: string;
  /** Called with the rendered range whenever it changes (e.g. to load older history near the end). */
  onRangeChange?: (range: RowRange) => void;
  onScroll?: (scroll: VirtualRowsScroll) => void;
  /** Shown over the rows area (empty and loading states); position it absolutely. */
  children?: ReactNode;
  ref?: Ref<VirtualRowsHandle>;
}

/**
 * A list of fixed-height rows of which only those in view (plus the overscan) are in the DOM.
 *
 * Not TanStack Virtual: its measurement pass is O(count) whenever the count changes, which at a
 * million rows receiving items every frame costs ~17 ms per frame (bench/suites/35-item-store.ts
 * measures it); with equal row heights the range is O(1) arithmetic. Lists taller than browsers
 * allow are scrolled through `ScaledScroll`.
 *
 * Scrolling itself does not re-render: the scroll handler moves the rows' container directly and
 * React renders only when the range of rows changes. Nothing here reads layout while rendering or
 * placing rows (the scroll position is the one last reported or written, the viewport's height the
 * one the resize observer gave): a read after React changed the rows would force a layout of its
 * own each time. When items arrive above the rows being read, the range moves with them in the
 * same render, so the rows in view keep their DOM (measured at 1M rows and 1,000 items/s: moving
 * it a render later re-created every arriving item's worth of rows twice a frame).
 */
export function VirtualRows({
  count,
  renderRow,
  rowKey,
  indexOfKey,
  revealAtTop = true,
  rowHeight = ROW_HEIGHT,
  overscan = OVERSCAN,
  className,
  style,
  ariaLabel,
  onRangeChange,
  onScroll,
  children,
  ref,
}: VirtualRowsProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  const scaled = useMemo(() => new ScaledScroll(), []);
  const [viewport, setViewport] = useState(0);
  const viewportRef = useRef(0);
  /** The native scroll position, as last reported by a scroll event or written here. */
  const scrollTopRef = useRef(0);
  const scrollLeftRef = useRef(0);
  /** The rows to render; a state change only asks for the render. */
  const rangeRef = useRef<RowRange>({ start: 0, end: 0 });
  const [, rangeMoved] = useReducer((n: number) => n + 1, 0);
  /** The first row in the DOM: the container is placed for what is rendered, not what is coming. */
  const renderedStart = useRef(0);
  const callbacks = useRef({ onRangeChange, onScroll });
  callbacks.current = { onRangeChange, onScroll };

  scaled.resize(count * rowHeight, viewport);

  /** The keys of the rows in the DOM, from `start`, and the count they were rendered with. */
  const rendered = useRef<{ start: number; keys: Key[]; count: number }>({ start: 0, keys: [], count: 0 });
  /** The row at the viewport's top when the count last changed, to keep it in place. */
  const anchor = useRef<{ key: Key; index: number; count: number } | null>(null);
  /**
   * Taken from the rendered rows, not from `rowKey`: between a write to the list and its render
   * (a scroll in the same frame) the list already answers for the new count.
   */
  const rememberAnchor = useCallback(() => {
    const { start, keys, count: renderedCount } = rendered.current;
    const top = Math.floor(scaled.virtualOffset / rowHeight);
    const key = keys[top - start];
    anchor.current = key === undefined ? null : { key, index: top, count: renderedCount };
  }, [scaled, rowHeight]);

  const place = useCallback(() => {
    if (!windowRef.current) return;
    const top = scaled.toContent(renderedStart.current * rowHeight, scrollTopRef.current);
    windowRef.current.style.transform = `translateY(${top}px)`;
  }, [scaled, rowHeight]);

  /**
   * Places the rows' container for the current offsets and re-renders only if the range moved;
   * until that render lands the overscan covers the gap.
   */
  const sync = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    place();
    rememberAnchor();
    const next = rowRange(scaled.virtualOffset, viewportRef.current, count, rowHeight, overscan);
    if (next.start !== rangeRef.current.start || next.end !== rangeRef.current.end) {
      rangeRef.current = next;
      rangeMoved();
      callbacks.current.onRangeChange?.(next);
    }
    callbacks.current.onScroll?.({
      offset: scaled.virtualOffset,
      left: scrollLeftRef.current,
      atStart: scaled.virtualOffset <= 0,
      atEnd: scaled.virtualOffset >= scaled.maxVirtualOffset - 1,
    });
  }, [scaled, place, rememberAnchor, count, rowHeight, overscan]);

  /** Writes the native scroll position (the browser may round it; its scroll event then corrects it). */
  const setScrollTop = useCallback((physical: number) => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    scroller.scrollTop = physical;
    scrollTopRef.current = physical;
  }, []);

  const scrollToVirtual = useCallback((virtual: number) => {
    setScrollTop(scaled.scrollTo(virtual));
    // No scroll event follows when the native position did not change (a sub-pixel step).
    sync();
  }, [scaled, setScrollTop, sync]);

  // Rows added or removed above the anchor row: it stays where it was on screen, and the range
  // moves by as many rows in this very render.
  let shift = 0;
  const previous = anchor.current;
  if (previous && previous.count !== count && indexOfKey && (scaled.virtualOffset > 0 || !revealAtTop)) {
    const index = indexOfKey(previous.key);
    if (index >= 0) shift = index - previous.index;
  }
  const range = shift === 0 ? rangeRef.current : {
    start: Math.max(0, rangeRef.current.start + shift),
    end: Math.max(0, Math.min(count, rangeRef.current.end + shift)),
  };

  const keys: Key[] = [];
  const rows: ReactNode[] = [];
  for (let index = range.start; index < Math.min(range.end, count); index++) {
    const key = rowKey ? rowKey(index) : index;
    keys.push(key);
    rows.push(
      // In flow rather than each placed at its own top: rows arriving above move none of them.
      <div key={key} role="presentation" style={{ height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }

  useLayoutEffect(() => {
    rendered.current = { start: range.start, keys, count };
    if (shift !== 0) {
      setScrollTop(scaled.scrollTo(scaled.virtualOffset + shift * rowHeight));
      rangeRef.current = range;
      callbacks.current.onRangeChange?.(range);
    }
    if (renderedStart.current !== range.start || shift !== 0) {
      renderedStart.current = range.start;
      place();
    }
    rememberAnchor();
  });

  useLayoutEffect(sync, [sync, viewport]);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const measure = () => {
      viewportRef.current = scroller.clientHeight;
      setViewport(scroller.clientHeight);
    };
    measure();
    scrollTopRef.current = scroller.scrollTop;
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const handleScroll = () => {
      scrollTopRef.current = scroller.scrollTop;
      scrollLeftRef.current = scroller.scrollLeft;
      scaled.onScroll(scrollTopRef.current);
      sync();
    };
    scroller.addEventListener('scroll', handleScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', handleScroll);
  }, [scaled, sync]);

  useScaledWheelAndKeys(scrollerRef, scaled, scrollToVirtual, rowHeight);

  useImperativeHandle(ref, () => ({
    scrollToIndex(index, align = 'auto') {
      if (count === 0) return;
      const clamped = Math.max(0, Math.min(index, count - 1));
      scrollToVirtual(offsetForRow(clamped, scaled.virtualOffset, viewportRef.current, rowHeight, align));
    },
    scrollBy: (delta) => scrollToVirtual(scaled.virtualOffset + delta),
    scrollToEnd: () => scrollToVirtual(scaled.maxVirtualOffset),
    getOffset: () => scaled.virtualOffset,
    isAtEnd: () => scaled.virtualOffset >= scaled.maxVirtualOffset - 1,
    element: () => scrollerRef.current,
  }), [count, rowHeight, scaled, scrollToVirtual]);

  return (
    <div
      ref={scrollerRef}
      className={className}
      style={{ position: 'relative', overflow: 'auto', overflowAnchor: 'none', ...style }}
      tabIndex={0}
      aria-label={ariaLabel}
    >
      <div style={{ position: 'relative', height: scaled.physicalSize, minHeight: '100%', overflowY: 'clip' }}>
        {/* Not will-change: a composited container made the compositor re-layerize every clipped cell each frame (bench 41). */}
        <div ref={windowRef} style={{ position: 'absolute', top: 0, left: 0, right: 0 }}>
          {rows}
        </div>
      </div>
      {children}
    </div>
  );
}

/** Lines of a wheel in DOM_DELTA_LINE mode; a notch of a mouse wheel is about 3 of them. */
const WHEEL_LINE_PX = 16;
/** Wheel steps at least this large (mouse notches) glide; smaller ones (touchpads) apply at once. */
const GLIDE_FROM_PX = 50;
const GLIDE_FRACTION = 0.3;

/**
 * When the list is scaled, native wheel and key scrolling would move `ratio` times too far, so
 * they are taken over and applied as exact steps. Below the cap the browser scrolls natively.
 */
function useScaledWheelAndKeys(
  scrollerRef: RefObject<HTMLDivElement | null>,
  scaled: ScaledScroll,
  scrollToVirtual: (virtual: number) => void,
  rowHeight: number,
): void {
  const latest = useRef(scrollToVirtual);
  latest.current = scrollToVirtual;

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    let target: number | null = null;
    let frame = 0;

    const glide = () => {
      frame = 0;
      if (target === null) return;
      const distance = target - scaled.virtualOffset;
      if (Math.abs(distance) < 1) {
        latest.current(target);
        target = null;
        return;
      }
      latest.current(scaled.virtualOffset + distance * GLIDE_FRACTION);
      frame = requestAnimationFrame(glide);
    };

    const step = (delta: number) => {
      if (Math.abs(delta) < GLIDE_FROM_PX) {
        target = null;
        latest.current(scaled.virtualOffset + delta);
        return;
      }
      target = Math.max(0, Math.min((target ?? scaled.virtualOffset) + delta, scaled.maxVirtualOffset));
      if (!frame) frame = requestAnimationFrame(glide);
    };

    const onWheel = (event: WheelEvent) => {
      if (!scaled.isScaled || event.ctrlKey || event.deltaY === 0) return;
      event.preventDefault();
      const unit = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? WHEEL_LINE_PX
        : event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? scroller.clientHeight : 1;
      step(event.deltaY * unit);
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (!scaled.isScaled || event.defaultPrevented || event.target !== scroller) return;
      const page = Math.max(rowHeight, scroller.clientHeight - rowHeight);
      const deltas: Record<string, number> = {
        ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, ' ': event.shiftKey ? -page : page,
      };
      if (event.key === 'Home') latest.current(0);
      else if (event.key === 'End') latest.current(scaled.maxVirtualOffset);
      else if (event.key in deltas) step(deltas[event.key]!);
      else return;
      event.preventDefault();
    };

    scroller.addEventListener('wheel', onWheel, { passive: false });
    scroller.addEventListener('keydown', onKeyDown);
    return () => {
      scroller.removeEventListener('wheel', onWheel);
      scroller.removeEventListener('keydown', onKeyDown);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [scrollerRef, scaled, rowHeight]);
}
