import type { CapturedItem, CompactItem } from '@spyglass/protocol';
import { nextFrame } from '../requests/store/live-feed';
import { DEFAULT_SLICE_MS, macrotask } from '../requests/store/time-slicer';
import type { TimeRange } from './time-range';

/** What the page knows of a session's items while they stream in. */
export interface SessionItemsState {
  /** Items received so far. */
  count: number;
  done: boolean;
  error: unknown;
  /** Span of the creation times received so far (null below 2 distinct times, spec 001 'Sessions'). */
  bounds: TimeRange | null;
}

type AddedListener = (items: readonly CompactItem[]) => void;

/** After the next frame is painted (a hidden tab gets no frames: then after nextFrame's timer). */
export function afterNextPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return macrotask();
  return new Promise((resolve) => void nextFrame(() => void macrotask().then(resolve)));
}

/**
 * A saved session's items as they arrive, page after page or chunk after chunk of data.json, so
 * the page can show the first rows at once and add the rest as they come. Items are kept by id
 * (the public page opens an item from here; it has no other call). Listeners hear each batch
 * once; `state` changes with every batch for the loading count and the time slider.
 */
export class SessionItems {
  private readonly all: CompactItem[] = [];
  private readonly byId = new Map<string, CompactItem>();
  private min = Infinity;
  private max = -Infinity;
  private current: SessionItemsState = { count: 0, done: false, error: null, bounds: null };
  private readonly listeners = new Set<() => void>();
  private readonly addedListeners = new Set<AddedListener>();

  /** `painted`: resolves once the page has painted what it rendered (tests pass their own). */
  constructor(private readonly painted: () => Promise<void> = afterNextPaint) {}

  get state(): SessionItemsState {
    return this.current;
  }

  /** The items received so far, in the order they came. */
  get items(): readonly CompactItem[] {
    return this.all;
  }

  get(id: string): CompactItem | undefined {
    return this.byId.get(id);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Hears every batch added from now on. */
  onAdded(listener: AddedListener): () => void {
    this.addedListeners.add(listener);
    return () => this.addedListeners.delete(listener);
  }

  /**
   * Reads batches until the source ends, fails or `signal` aborts. A stream that arrives faster
   * than it is parsed answers every read at once, so without a pause the loop would hold the main
   * thread from batch to batch: the first rows stayed unpainted for 0.2-2 s behind data.json's
   * next chunks (bench 51, long tasks up to 1 s). Past a slice of work it gives the page a turn.
   * The next batch is not even read until the first one is on screen: a page of 5,000 items parsed
   * and checked before the first rows' frame would keep them off the screen meanwhile.
   */
  async consume(batches: AsyncIterable<readonly CompactItem[]>, signal: AbortSignal): Promise<void> {
    try {
      let sliceStart = performance.now();
      let shown = false;
      for await (const batch of batches) {
        if (signal.aborted) return;
        this.add(batch);
        if (!shown && batch.length > 0) {
          shown = true;
          await this.painted();
          sliceStart = performance.now();
        } else if (performance.now() - sliceStart >= DEFAULT_SLICE_MS) {
          await macrotask();
          sliceStart = performance.now();
        }
      }
      if (!signal.aborted) this.set({ ...this.current, done: true });
    } catch (error) {
      if (!signal.aborted) this.set({ ...this.current, error });
    }
  }

  private add(batch: readonly CompactItem[]): void {
    if (batch.length === 0) return;
    for (const item of batch) {
      this.all.push(item);
      this.byId.set(item.id, item);
      const t = Date.parse(item.createdAt);
      if (t < this.min) this.min = t;
      if (t > this.max) this.max = t;
    }
    for (const listener of this.addedListeners) listener(batch);
    const bounds: TimeRange | null = this.all.length >= 2 && this.min < this.max ? [this.min, this.max] : null;
    this.set({ ...this.current, count: this.all.length, bounds });
  }

  private set(state: SessionItemsState): void {
    this.current = state;
    for (const listener of this.listeners) listener();
  }
}

/** Full items of the public page: what `loadItem` answers for a row. */
export function fullItemOf(items: SessionItems, id: string): CapturedItem | undefined {
  return items.get(id) as CapturedItem | undefined;
}
