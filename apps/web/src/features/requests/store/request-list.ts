import { NewRowTracker } from '../list/new-row-tracker';
import { searchTextsOf } from '../search/search-texts';
import { HistoryLoader, type FetchHistoryPage } from './history-loader';
import { ItemTotal } from './item-total';
import { ListStore, type ListStoreOptions } from './list-store';
import { LiveFeed, nextFrame, type FrameRequest } from './live-feed';

/** Everything the request list screen holds for one device, wired together. */
export interface RequestList {
  deviceId: string;
  store: ListStore;
  /** Give it every viewer message of the live connection. */
  feed: LiveFeed;
  history: HistoryLoader;
  /** 'Total: M': the device's stored items, loaded or not. */
  total: ItemTotal;
  newRows: NewRowTracker;
  dispose(): void;
}

export interface RequestListOptions extends ListStoreOptions {
  /** When buffered live messages are applied (tests flush by hand). */
  requestFrame?: FrameRequest;
}

export function createRequestList(deviceId: string, fetchPage: FetchHistoryPage, options: RequestListOptions = {}): RequestList {
  const store = new ListStore(options);
  // Before the first history page, so that every item's search text is built as it arrives.
  searchTextsOf(store);
  const history = new HistoryLoader(store, fetchPage);
  const total = new ItemTotal(store, history);
  const newRows = new NewRowTracker();
  const feed = new LiveFeed(store, deviceId, {
    onNewItems: (ids) => {
      newRows.mark(ids);
      total.noteArrived(ids);
    },
    onDeleted: (ids) => {
      history.noteDeleted(ids);
      total.noteDeleted(ids);
    },
    onCleared: () => {
      history.noteCleared();
      total.noteCleared();
    },
    onResync: () => {
      total.reset();
      void history.reload();
    },
  }, options.requestFrame ?? nextFrame);
  return {
    deviceId,
    store,
    feed,
    history,
    total,
    newRows,
    dispose() {
      feed.dispose();
      history.dispose();
      store.clear();
    },
  };
}
