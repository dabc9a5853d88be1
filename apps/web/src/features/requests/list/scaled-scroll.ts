/**
 * Scrolling through more pixels than a browser lets an element be tall. A million rows of 30 px
 * are 30,000,000 px; Chrome caps element height near 33.5M px and Firefox near 17.9M px, and
 * both lose precision well before that. Above `MAX_SCROLL_PX` the scroll content is capped and
 * the list keeps its own exact "virtual" offset:
 * - a jump of the native scroll position (scrollbar drag, click in the track) maps linearly, so
 *   the thumb reaches both ends of the list;
 * - wheel and keyboard steps move the virtual offset by exactly their pixel delta, and the
 *   native position follows (a scroll event answering that write keeps the exact offset rather
 *   than re-deriving it, which scrollTop's rounding would blur by a few px);
 * - rows are placed relative to the current scroll position, so they sit pixel-exact whatever
 *   the scale.
 * Below the cap the mapping is the identity and the browser scrolls natively.
 */

/**
 * Below 2^23 px: Chrome keeps scroll offsets as 32-bit floats, whose step is 1 px from 8.4M to
 * 16.8M and 2 px above (measured: a scrollTop set to 11,666,567.0 reads back as 11,666,568).
 */
export const MAX_SCROLL_PX = 8_000_000;

/** How far the reported native position may be from the one asked for and still be our write. */
const ECHO_TOLERANCE_PX = 2;

export class ScaledScroll {
  private total = 0;
  private viewport = 0;
  private offset = 0;
  /** The native position this object last asked for, until the browser reports it. */
  private expected: number | null = null;

  constructor(private readonly maxPhysical = MAX_SCROLL_PX) {}

  /** Sets the list's full size and the viewport's size (both in px); keeps the offset in range. */
  resize(totalSize: number, viewportSize: number): void {
    this.total = Math.max(0, totalSize);
    this.viewport = Math.max(0, viewportSize);
    this.offset = this.clamp(this.offset);
  }

  /** The height to give the scroll content. */
  get physicalSize(): number {
    return Math.min(this.total, this.maxPhysical);
  }

  get isScaled(): boolean {
    return this.total > this.maxPhysical;
  }

  /** Virtual px per native px of the scrollable range (1 when not scaled). */
  get ratio(): number {
    if (!this.isScaled) return 1;
    const physicalRange = this.physicalSize - this.viewport;
    return physicalRange > 0 ? (this.total - this.viewport) / physicalRange : 1;
  }

  /** Where the viewport's top is in the list, in px of the list (row index × row height). */
  get virtualOffset(): number {
    return this.offset;
  }

  get maxVirtualOffset(): number {
    return Math.max(0, this.total - this.viewport);
  }

  /** The browser reported a scroll to `physical`: answers the new virtual offset. */
  onScroll(physical: number): number {
    if (!this.isScaled) {
      this.expected = null;
      this.offset = this.clamp(physical);
      return this.offset;
    }
    if (this.expected !== null && Math.abs(physical - this.expected) <= ECHO_TOLERANCE_PX) {
      this.expected = null;
      return this.offset;
    }
    this.expected = null;
    this.offset = this.clamp(physical * this.ratio);
    return this.offset;
  }

  /** Moves the viewport's top to `virtual`; answers the native position to set. */
  scrollTo(virtual: number): number {
    this.offset = this.clamp(virtual);
    const physical = this.isScaled ? this.offset / this.ratio : this.offset;
    this.expected = this.isScaled ? physical : null;
    return physical;
  }

  /** A wheel or key step of `delta` px: exact in the list whatever the scale. */
  scrollBy(delta: number): number {
    return this.scrollTo(this.offset + delta);
  }

  /** Where content at list position `start` goes inside the scroll content, given its scrollTop. */
  toContent(start: number, physicalScrollTop: number): number {
    return start - this.offset + physicalScrollTop;
  }

  private clamp(virtual: number): number {
    return Math.max(0, Math.min(virtual, this.maxVirtualOffset));
  }
}

export interface RowRange {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
}

/** Rows overlapping the viewport, plus `overscan` on each side. O(1): every row has the same height. */
export function rowRange(offset: number, viewport: number, count: number, rowHeight: number, overscan: number): RowRange {
  if (count === 0 || viewport <= 0) return { start: 0, end: Math.min(count, overscan) };
  const first = Math.floor(offset / rowHeight);
  const last = Math.ceil((offset + viewport) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}

/** The offset that shows row `index` at the top, centred, or just inside the viewport ('auto'). */
export function offsetForRow(
  index: number,
  current: number,
  viewport: number,
  rowHeight: number,
  align: 'start' | 'center' | 'end' | 'auto' = 'auto',
): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  switch (align) {
    case 'start':
      return top;
    case 'center':
      return top - (viewport - rowHeight) / 2;
    case 'end':
      return bottom - viewport;
    case 'auto':
      if (top < current) return top;
      if (bottom > current + viewport) return bottom - viewport;
      return current;
  }
}
