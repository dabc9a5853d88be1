import type { HistoryLoader, HistoryPage } from './history-loader';
import type { ListStore } from './list-store';

/**
 * 'Total: M' of the stats bar: how many items the device has stored, while only some pages of
 * them are loaded. The newest page brings the server's count of the items numbered up to its
 * newest (`HistoryPage.total`); items arriving live with a higher number are added to it, live
 * deletions of others taken off it. Once every page is loaded the store holds them all and its
 * own count is the answer, as it is for a list whose pages carry no count (a saved session's).
 */
export class ItemTotal {
  /** The server's count, less the older items deleted since; null until the newest page came. */
  private counted: number | null = null;
  /** Items numbered above this one were not in `counted`. */
  private countedThrough = 0;
  /** The held items numbered above `countedThrough`. */
  private readonly newer = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: ListStore,
    private readonly history: HistoryLoader,
  ) {
    history.observePages((page) => this.pageLoaded(page));
  }

  get value(): number {
    const held = this.store.totalCount;
    if (this.counted === null || this.history.state.status === 'complete') return held;
    // Never below what the browser holds: each of those is a stored item too.
    return Math.max(held, this.counted + this.newer.size);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    const unsubscribeStore = this.store.subscribe(listener);
    const unsubscribeHistory = this.history.subscribe(listener);
    return () => {
      this.listeners.delete(listener);
      unsubscribeStore();
      unsubscribeHistory();
    };
  };

  /** Items the live feed added to the store that it did not hold before (old ones sent again among them). */
  noteArrived(ids: readonly string[]): void {
    if (this.counted === null) return;
    let changed = false;
    for (const id of ids) {
      const item = this.store.get(id);
      if (item && item.num > this.countedThrough && !this.newer.has(id)) {
        this.newer.add(id);
        changed = true;
      }
    }
    if (changed) this.emit();
  }

  /** Items the server deleted (the live feed's `requests_deleted`, also for this tab's own deletes). */
  noteDeleted(ids: readonly string[]): void {
    if (this.counted === null) return;
    for (const id of ids) {
      if (!this.newer.delete(id)) this.counted = Math.max(0, this.counted - 1);
    }
    this.emit();
  }

  noteCleared(): void {
    this.counted = 0;
    this.newer.clear();
    this.emit();
  }

  /** The list starts over (a resync): the count comes again with the newest page. */
  reset(): void {
    this.counted = null;
    this.newer.clear();
    this.emit();
  }

  private pageLoaded(page: HistoryPage): void {
    if (page.total === undefined) return;
    this.counted = page.total;
    this.countedThrough = page.items[0]?.num ?? 0;
    // Live items that landed before the page (the subscription is made first) and are newer than it.
    this.newer.clear();
    for (const item of this.store.allItems()) if (item.num > this.countedThrough) this.newer.add(item.id);
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
