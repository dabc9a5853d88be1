import { isoInstant } from '@spyglass/protocol';
import { orderFor } from '../store/item-order';
import { compareCreatedAt, type ItemComparator } from '../store/item-order';
import type { ListStore } from '../store/list-store';
import { nextFrame, type FrameRequest } from '../store/live-feed';
import { runSliced, sharedSliceHost, type SlicedTask, type SliceHost } from '../store/time-slicer';
import {
  binMsOf, binsOfAnyRows, binsOfOrderedRows, DEFAULT_CHART_GRANULARITY, EMPTY_BINS, localOffsetMs,
  type ChartBins, type ChartGranularity,
} from './chart-bins';

export interface ChartBinnerOptions {
  granularity?: ChartGranularity;
  /** When a change of the store is binned (tests flush by hand). */
  requestFrame?: FrameRequest;
  /** Where binning of rows in another order than time runs its slices. */
  host?: SliceHost;
  offsetMs?: number;
}

/** True when the rows are ordered by createdAt (the list's default order), in either direction. */
function isTimeOrder(compare: ItemComparator): boolean {
  return compare === compareCreatedAt || compare === orderFor({ column: 'createdAt', direction: 'asc' }).compare;
}

/**
 * Keeps the bar chart's bins of the shown rows up to date: re-binned at most once per animation
 * frame after the store changes, whatever the rate of live items. Rows in time order (the default)
 * are binned in O(bins × log rows) on the spot; rows in another order take a full pass in time
 * slices while the previous bins stay shown.
 */
export class ChartBinner {
  private bins: ChartBins = EMPTY_BINS;
  private granularityValue: ChartGranularity;
  private readonly listeners = new Set<() => void>();
  private readonly requestFrame: FrameRequest;
  private readonly host: SliceHost;
  private readonly offsetMs: number;
  private cancelFrame: (() => void) | null = null;
  private task: SlicedTask | null = null;
  /** The store changed while a sliced pass ran: bin again when it lands. */
  private stale = false;
  private unsubscribeStore: (() => void) | null = null;

  constructor(private readonly store: ListStore, options: ChartBinnerOptions = {}) {
    this.granularityValue = options.granularity ?? DEFAULT_CHART_GRANULARITY;
    this.requestFrame = options.requestFrame ?? nextFrame;
    this.host = options.host ?? sharedSliceHost();
    this.offsetMs = options.offsetMs ?? localOffsetMs();
  }

  get current(): ChartBins {
    return this.bins;
  }

  get granularity(): ChartGranularity {
    return this.granularityValue;
  }

  setGranularity(granularity: ChartGranularity): void {
    if (granularity === this.granularityValue) return;
    this.granularityValue = granularity;
    this.cancelTask();
    this.schedule();
  }

  /** Starts following the store (first listener) and stops with the last one. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.unsubscribeStore = this.store.subscribe(() => this.schedule());
      this.schedule();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.dispose();
    };
  };

  readonly getSnapshot = (): ChartBins => this.bins;

  dispose(): void {
    this.unsubscribeStore?.();
    this.unsubscribeStore = null;
    this.cancelFrame?.();
    this.cancelFrame = null;
    this.cancelTask();
  }

  private schedule(): void {
    if (this.task) {
      this.stale = true;
      return;
    }
    if (this.cancelFrame) return;
    this.cancelFrame = this.requestFrame(() => {
      this.cancelFrame = null;
      this.bin();
    });
  }

  private bin(): void {
    const store = this.store;
    const binMs = binMsOf(this.granularityValue);
    const timeAt = (index: number) => {
      const item = store.rowAt(index);
      return item ? isoInstant(item.createdAt) : Number.NaN;
    };
    if (isTimeOrder(store.order)) {
      this.land(binsOfOrderedRows(store.count, timeAt, binMs, this.offsetMs));
      return;
    }
    this.stale = false;
    this.task = runSliced(binsOfAnyRows(store.count, timeAt, binMs, this.offsetMs), (bins) => {
      this.task = null;
      this.land(bins);
      if (this.stale) {
        this.stale = false;
        this.schedule();
      }
    }, this.host);
  }

  private land(bins: ChartBins): void {
    this.bins = bins;
    for (const listener of this.listeners) listener();
  }

  private cancelTask(): void {
    this.task?.cancel();
    this.task = null;
    this.stale = false;
  }
}
