import type { CompactItem } from '@spyglass/protocol';
import type { ListStore } from './list-store';

/** One page of GET /v1/requests (newest first): `nextBefore` is the cursor of the next, older page. */
export interface HistoryPage {
  items: CompactItem[];
  nextBefore: number | null;
  /** The newest page only: the device's stored items numbered up to its newest (`RequestsPage.total`). */
  total?: number;
}

/** Fetches the page of items older than `before` (null: the newest page), of `limit` items or the fetcher's own default. */
export type FetchHistoryPage = (before: number | null, signal: AbortSignal, limit?: number) => Promise<HistoryPage>;

export type HistoryStatus = 'idle' | 'loading' | 'error' | 'complete';

export interface HistoryState {
  status: HistoryStatus;
  /** True until the first page has landed ('Loading requests...'). */
  initial: boolean;
  error: unknown;
}

/** Rows left below the rendered range before the next page is asked for. */
const PREFETCH_ROWS = 200;

/**
 * Loads the device's stored items page by page from the cursor API as the user scrolls back.
 * Pages merge into the store like live items (by id, in sorted place), so a page racing live
 * messages cannot duplicate an item, and items deleted while a page was on its way stay deleted.
 */
export class HistoryLoader {
  private before: number | null = null;
  private controller: AbortController | null = null;
  /** Ids deleted while a page is in flight: that page may still carry them. */
  private tombstones = new Set<string>();
  private current: HistoryState = { status: 'idle', initial: true, error: null };
  /** The page on its way, for callers that wait for it rather than ask for another. */
  private pending: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly pageObservers = new Set<(page: HistoryPage) => void>();

  constructor(
    private readonly store: ListStore,
    private readonly fetchPage: FetchHistoryPage,
  ) {}

  get state(): HistoryState {
    return this.current;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts over from the newest page (first open, or after a resync). */
  reload(): Promise<void> {
    this.abort();
    this.before = null;
    this.set({ status: 'idle', initial: true, error: null });
    return this.loadOlder();
  }

  /** Told of every page after it merged into the store (with its `total` when the server counted). */
  observePages(observer: (page: HistoryPage) => void): () => void {
    this.pageObservers.add(observer);
    return () => this.pageObservers.delete(observer);
  }

  /** Loads the next older page unless there is none; while one is on its way, answers that one. */
  loadOlder(limit?: number): Promise<void> {
    const { status } = this.current;
    if (status === 'complete') return Promise.resolve();
    if (status === 'loading') return this.pending ?? Promise.resolve();
    const pending = this.loadPage(limit);
    this.pending = pending;
    return pending;
  }

  /**
   * Loads every page not loaded yet, `limit` items each (what Save Session needs: the list as the
   * device holds it), until the oldest or until `signal` is aborted, which stops it after the page
   * on its way. Rejects with a page's error.
   */
  async loadRest(limit: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.current.status !== 'complete') {
      const before = this.current;
      await this.loadOlder(limit);
      if (this.current.status === 'error') throw this.current.error;
      // A page aborted by dispose() leaves the state as it was: nothing more will come.
      if (this.current === before) return;
    }
  }

  private async loadPage(limit: number | undefined): Promise<void> {
    const { initial } = this.current;
    const controller = new AbortController();
    this.controller = controller;
    this.tombstones.clear();
    this.set({ status: 'loading', initial, error: null });
    let page: HistoryPage;
    try {
      page = await this.fetchPage(this.before, controller.signal, limit);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.controller = null;
      this.set({ status: 'error', initial, error });
      return;
    }
    if (controller.signal.aborted) return;
    this.controller = null;
    const tombstones = this.tombstones;
    this.store.upsertMany(tombstones.size === 0 ? page.items : page.items.filter((item) => !tombstones.has(item.id)));
    this.tombstones = new Set();
    this.before = page.nextBefore;
    for (const observer of this.pageObservers) observer(page);
    this.set({ status: page.nextBefore === null ? 'complete' : 'idle', initial: false, error: null });
  }

  /** Call with the list's rendered range: loads more when the oldest rendered rows near the end. */
  onRangeChange(range: { start: number; end: number }, count: number, descending: boolean): void {
    const rowsToOldest = descending ? count - range.end : range.start;
    if (rowsToOldest < PREFETCH_ROWS) void this.loadOlder();
  }

  /** Live deletions: keep them from coming back with a page already requested. */
  noteDeleted(ids: readonly string[]): void {
    if (this.controller) for (const id of ids) this.tombstones.add(id);
  }

  /** The device's items were cleared: nothing older is left to load. */
  noteCleared(): void {
    this.abort();
    this.set({ status: 'complete', initial: false, error: null });
  }

  dispose(): void {
    this.abort();
    this.listeners.clear();
    this.pageObservers.clear();
  }

  private abort(): void {
    this.controller?.abort();
    this.controller = null;
    this.tombstones.clear();
  }

  private set(state: HistoryState): void {
    this.current = state;
    for (const listener of this.listeners) listener();
  }
}
