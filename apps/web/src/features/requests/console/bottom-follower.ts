/** What the list reports on every scroll and every change of its size or content. */
export interface ScrollReport {
  /** The viewport's top, in px of the list. */
  offset: number;
  atEnd: boolean;
  /** The viewport's height in px. */
  viewport: number;
}

/**
 * Follow-the-bottom of the console (spec 001 'Console view'): while the reader is at the end,
 * new items keep the view at the end; once they scroll up, it stays put and a toast counts the
 * requests below that arrived since. Only a move up leaves the bottom: the list growing or the
 * viewport shrinking changes the offset the other way or not at all, and must keep following.
 */
export class BottomFollower {
  private followingBottom = true;
  private lastOffset = 0;
  private viewport = 0;
  /** createdAt (ms) of the newest item when the reader left the bottom. */
  private newestWhenLeft: number | null = null;
  private readonly listeners = new Set<() => void>();

  get following(): boolean {
    return this.followingBottom;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Takes a scroll report; `newest` is the createdAt (ms) of the newest row, null when empty.
   * Answers true when the view must be moved to the end to keep following.
   */
  onScroll(report: ScrollReport, newest: number | null): boolean {
    const movedUp = report.offset < this.lastOffset - 0.5;
    this.lastOffset = report.offset;
    this.viewport = report.viewport;
    let scrollToEnd = false;
    if (report.atEnd) {
      this.followingBottom = true;
      this.newestWhenLeft = null;
    } else if (this.followingBottom) {
      if (movedUp) {
        this.followingBottom = false;
        this.newestWhenLeft = newest;
      } else {
        scrollToEnd = true;
      }
    }
    this.emit();
    return scrollToEnd;
  }

  /** The reader asked to go down (the toast's click): follow again from here. */
  follow(): void {
    this.followingBottom = true;
    this.newestWhenLeft = null;
    this.emit();
  }

  /**
   * 'N requests below': the rows under the viewport, once a request newer than the newest at the
   * time the reader left has arrived; 0 hides the toast.
   */
  requestsBelow(count: number, newest: number | null, rowHeight: number): number {
    if (this.followingBottom || newest === null) return 0;
    if (this.newestWhenLeft !== null && newest <= this.newestWhenLeft) return 0;
    const seen = Math.ceil((this.lastOffset + this.viewport) / rowHeight);
    return Math.max(0, count - seen);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
