import { REQUESTS_PAGE_MAX, SESSION_MAX_ITEMS } from '@spyglass/protocol';
import type { ListStore } from '../requests/store/list-store';
import type { RequestList } from '../requests/store/request-list';

/** More items would be saved than a session holds (the server refuses them too). */
export class TooManyToSave extends Error {
  constructor() {
    super(`A session holds at most ${SESSION_MAX_ITEMS.toLocaleString('en-US')} requests: filter the list or select fewer`);
  }
}

/** Held items of the device's stored ones, while the pages left load. */
export interface LoadProgress {
  loaded: number;
  total: number;
}

export interface IdsToSaveOptions {
  /** Stops loading; the answer is then null. */
  signal: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
}

/**
 * The ids a saved session holds: the selection when there is one, else every item the list shows
 * with its filters applied, the device's items not loaded yet included. The pages left are loaded
 * into the list first, the largest the API gives, so the filters apply to them as to every row
 * (the filter language lives in the browser); items arriving live meanwhile are saved too when
 * they pass. Answers null when `signal` stopped it; throws a page's error, or `TooManyToSave` as
 * soon as more items than a session holds would be saved (unfiltered, before loading anything).
 */
export async function idsToSave(list: Pick<RequestList, 'store' | 'history' | 'total'>, { signal, onProgress }: IdsToSaveOptions): Promise<string[] | null> {
  const { store, history, total } = list;
  if (store.selectionCount > 0) return checked(store.selectedItems().map((item) => item.id));
  if (history.state.status !== 'complete') {
    // Unfiltered, the device's count says it all: no need to load 100,000 items to refuse them.
    if (!store.isFiltered && total.value > SESSION_MAX_ITEMS) throw new TooManyToSave();
    const tooMany = new AbortController();
    const report = () => {
      if (store.count > SESSION_MAX_ITEMS) tooMany.abort();
      else onProgress?.({ loaded: store.totalCount, total: total.value });
    };
    report();
    const stopReporting = history.subscribe(report);
    try {
      const loaded = history.loadRest(REQUESTS_PAGE_MAX, AbortSignal.any([signal, tooMany.signal]));
      // Cancelling answers at once; the page on its way still lands in the list.
      if (await Promise.race([loaded.then(() => false), aborted(signal)])) return null;
    } finally {
      stopReporting();
    }
    if (tooMany.signal.aborted) throw new TooManyToSave();
  }
  if (await Promise.race([settled(store), aborted(signal)])) return null;
  return checked(Array.from(store.rows(), (item) => item.id));
}

function checked(ids: string[]): string[] {
  if (ids.length > SESSION_MAX_ITEMS) throw new TooManyToSave();
  return ids;
}

/** Resolves true once `signal` is aborted. */
function aborted(signal: AbortSignal): Promise<true> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(true);
    else signal.addEventListener('abort', () => resolve(true), { once: true });
  });
}

/** Resolves false once a filter or order being computed has landed: the rows are then the ones on screen. */
function settled(store: ListStore): Promise<false> {
  return new Promise((resolve) => {
    if (!store.isRecomputing) {
      resolve(false);
      return;
    }
    const stop = store.subscribe(() => {
      if (store.isRecomputing) return;
      stop();
      resolve(false);
    });
  });
}
