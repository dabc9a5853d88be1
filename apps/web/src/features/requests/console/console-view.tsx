import { ArrowDown } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type MouseEvent, type RefObject } from 'react';
import { Spinner } from '../../../ui/spinner';
import type { InspectorMode } from '../inspector/inspector-mode';
import { ROW_HEIGHT } from '../list/list-constants';
import { VirtualRows, type VirtualRowsHandle, type VirtualRowsScroll } from '../list/virtual-rows';
import type { RequestList } from '../store/request-list';
import { useRowCount, useStoreVersion } from '../store/use-list-store';
import { BottomFollower } from './bottom-follower';
import { ConsoleLine } from './console-line';
import { consoleToStoreIndex, useCreatedAtOrder } from './console-order';
import './console.css';

export interface ConsoleViewProps {
  list: RequestList;
  /** The console offers no writing actions, so it looks the same in every mode. */
  mode: InspectorMode;
  /** A plain click on a line: the screen opens the details of this item. */
  onOpenItem?: (id: string) => void;
}

/**
 * The console view (spec 001 'Console view'): items oldest first as log lines, following the
 * bottom while the reader is there, with 'N requests below' once they scrolled up and newer
 * requests came in. Selection is the store's, shared with the table and the details panel;
 * scrolling to the top loads older history.
 */
export function ConsoleView({ list, onOpenItem }: ConsoleViewProps) {
  const { store, history } = list;
  useCreatedAtOrder(store);
  const count = useRowCount(store);
  // The direction of the store may flip without the count changing.
  useStoreVersion(store);
  const descending = store.isDescending;
  const toStore = useCallback((index: number) => consoleToStoreIndex(index, store.count, store.isDescending), [store]);
  const historyState = useSyncExternalStore(history.subscribe, () => history.state);

  const rowsRef = useRef<VirtualRowsHandle>(null);
  /** The scroll area's box: the list's own handle is briefly unset while it commits a new count. */
  const listRef = useRef<HTMLDivElement>(null);
  const follower = useMemo(() => new BottomFollower(), []);
  const endQueued = useRef(false);

  const newest = useCallback((): number | null => {
    const item = store.rowAt(consoleToStoreIndex(store.count - 1, store.count, store.isDescending));
    return item ? Date.parse(item.createdAt) : null;
  }, [store]);

  const onScroll = useCallback((scroll: VirtualRowsScroll) => {
    const viewport = listRef.current?.clientHeight ?? 0;
    if (!follower.onScroll({ offset: scroll.offset, atEnd: scroll.atEnd, viewport }, newest()) || endQueued.current) return;
    // Reported while the list commits its new size: move once that commit is done.
    endQueued.current = true;
    queueMicrotask(() => {
      endQueued.current = false;
      if (follower.following) rowsRef.current?.scrollToEnd();
    });
  }, [follower, newest]);

  const onLineClick = useCallback((id: string, event: MouseEvent) => {
    const index = store.indexOfId(id);
    if (index < 0) return;
    if (event.metaKey || event.ctrlKey) store.toggleAt(index);
    else if (event.shiftKey) store.selectRangeTo(index);
    else {
      store.selectOnly(index);
      onOpenItem?.(id);
    }
  }, [store, onOpenItem]);

  useSelectionKeptInView(list, rowsRef);

  const scrollDown = () => {
    follower.follow();
    rowsRef.current?.scrollToEnd();
  };

  return (
    <section className="console-view" aria-label="Console">
      <div
        ref={listRef}
        className="console-list"
        role="listbox"
        aria-label="Console lines, oldest first"
        aria-multiselectable="true"
        onClick={(event) => {
          // Clicking empty space clears the selection (spec 001 §4).
          if (!(event.target as Element).closest('.console-line')) store.clearSelection();
        }}
      >
        <VirtualRows
          ref={rowsRef}
          className="console-rows"
          ariaLabel="Console"
          count={count}
          revealAtTop={false}
          rowKey={(index) => store.rowAt(toStore(index))?.id ?? index}
          indexOfKey={(key) => {
            const index = store.indexOfId(String(key));
            return index < 0 ? -1 : consoleToStoreIndex(index, store.count, descending);
          }}
          onRangeChange={(range) => history.onRangeChange(range, store.count, false)}
          onScroll={onScroll}
          renderRow={(index) => {
            const item = store.rowAt(toStore(index));
            return item ? <ConsoleLine store={store} item={item} onClick={onLineClick} /> : null;
          }}
        />
      </div>
      {historyState.status === 'loading' && !historyState.initial && (
        <div className="console-loading" role="status"><Spinner size={12} /> Loading requests...</div>
      )}
      <RequestsBelow list={list} follower={follower} newest={newest} onClick={scrollDown} />
    </section>
  );
}

/**
 * Arrow keys move the selection (the screen handles them, spec 001 §4); the console then brings
 * the newly selected line into view. Only after an arrow key: a click selects a line already in
 * view, and a live item auto-selected must not pull a reader who scrolled up back down.
 */
function useSelectionKeptInView(list: RequestList, rowsRef: RefObject<VirtualRowsHandle | null>): void {
  const { store } = list;
  useEffect(() => {
    let arrowPressed = false;
    let seen = store.selectionVersion;
    const onKeyDown = (event: KeyboardEvent) => {
      arrowPressed = event.key === 'ArrowUp' || event.key === 'ArrowDown';
    };
    const onKeyUp = () => {
      arrowPressed = false;
    };
    const unsubscribe = store.subscribe(() => {
      if (store.selectionVersion === seen) return;
      seen = store.selectionVersion;
      const selected = store.singleSelected;
      if (!arrowPressed || !selected) return;
      const index = store.indexOfId(selected.id);
      if (index >= 0) rowsRef.current?.scrollToIndex(consoleToStoreIndex(index, store.count, store.isDescending));
    });
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      unsubscribe();
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [store, rowsRef]);
}

/** The 'N requests below' toast; only it re-renders while the reader scrolls. */
function RequestsBelow({ list, follower, newest, onClick }: {
  list: RequestList;
  follower: BottomFollower;
  newest: () => number | null;
  onClick: () => void;
}) {
  const { store } = list;
  const subscribe = useCallback((listener: () => void) => {
    const stopFollower = follower.subscribe(listener);
    const stopStore = store.subscribe(listener);
    return () => {
      stopFollower();
      stopStore();
    };
  }, [follower, store]);
  const below = useSyncExternalStore(subscribe, () => follower.requestsBelow(store.count, newest(), ROW_HEIGHT));
  return (
    <div className="console-below">
      {below > 0 && (
        <button type="button" className="console-below-toast" onClick={onClick}>
          <ArrowDown size={13} aria-hidden="true" />
          {below} requests below
        </button>
      )}
    </div>
  );
}
