/**
 * The request table's benchmark page (bench/suites/41-request-table-browser.ts), table-bench.html:
 * not part of the app's build; the benchmark builds it with the app's Vite configuration. It renders the real `RequestTable` over a real request list, or (`?baseline`) bare
 * `VirtualRows` rows of plain text over the same store, and measures frames while items arrive.
 */
import { formatTimestamp, itemSummary } from '@spyglass/protocol';
import { useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { generateItems } from '../../packages/protocol/src/item-fixtures';
import { VirtualRows, type VirtualRowsHandle } from '../../apps/web/src/features/requests/list/virtual-rows';
import { createRequestList } from '../../apps/web/src/features/requests/store/request-list';
import { useRow } from '../../apps/web/src/features/requests/store/use-list-store';
import { defaultColumns } from '../../apps/web/src/features/requests/table/columns';
import { RequestTable } from '../../apps/web/src/features/requests/table/request-table';
import '../../apps/web/src/styles/index.css';
import '../../apps/web/src/features/requests/table/request-table.css';

const list = createRequestList('bench-device', () => Promise.resolve({ items: [], nextBefore: null }));
const columns = defaultColumns();
const sort = { column: 'createdAt', direction: 'desc' } as const;
const noop = () => undefined;
const baseline = location.search.includes('baseline');
let rows: VirtualRowsHandle | null = null;
const setRows = (handle: VirtualRowsHandle | null) => {
  rows = handle;
};

function PlainRow({ index }: { index: number }) {
  const item = useRow(list.store, index);
  if (!item) return null;
  return (
    <div style={{ display: 'flex', gap: 12, padding: '0 8px', lineHeight: '30px', whiteSpace: 'nowrap', overflow: 'hidden' }}>
      <span style={{ width: 60 }}>{item.num}</span>
      <span style={{ width: 400, overflow: 'hidden', textOverflow: 'ellipsis' }}>{itemSummary(item)}</span>
      <span style={{ width: 120 }}>{formatTimestamp(item.createdAt)}</span>
      <span style={{ width: 100 }}>{item.type}</span>
      <span>{item.level}</span>
    </div>
  );
}

function Page() {
  const count = useSyncExternalStore(list.store.subscribe, () => list.store.count);
  if (baseline) {
    return (
      <VirtualRows
        ref={setRows}
        style={{ flex: 1 }}
        count={count}
        rowKey={(index) => list.store.rowAt(index)?.id ?? index}
        indexOfKey={(key) => list.store.indexOfId(String(key))}
        renderRow={(index) => <PlainRow index={index} />}
      />
    );
  }
  return (
    <RequestTable
      ref={setRows}
      list={list}
      count={count}
      columns={columns}
      onPreviewColumns={noop}
      onSaveColumns={noop}
      sort={sort}
      onSort={noop}
      onRowClick={noop}
      onEmptyClick={noop}
      onDelete={noop}
      rowMenu={() => null}
    />
  );
}

createRoot(document.getElementById('root')!).render(<Page />);

export interface LiveFrames {
  /** Frame times (between animation frames), sorted. */
  frames: number[];
  longTasks: number[];
}

const LOAD_CHUNK = 50_000;
/** generateItems spaces items 37 ms apart. */
const ITEM_SPACING_MS = 37;
/**
 * Where the next live items' clock starts: after every item held, so that each run's items are the
 * newest and arrive at the top (a start taken from the count put a second run's items among the
 * first run's, most of them below the rows in view).
 */
let liveClock = Date.UTC(2026, 10, 25);

Object.assign(window, {
  tableBench: {
    /** Puts `n` generated items into the list, in chunks as history pages would come. */
    async load(n: number): Promise<number> {
      const items = generateItems(n);
      for (let i = 0; i < n; i += LOAD_CHUNK) list.store.upsertMany(items.slice(i, i + LOAD_CHUNK));
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return list.store.count;
    },
    /**
     * `rate` items/s arrive (once per frame, as the live feed writes them) for `seconds`, optionally
     * while scrolling. Paced: every frame gets the items and the scroll step of a 60 Hz frame
     * whatever the frame took, so that the work per frame is the same on a busy machine (for CPU
     * per frame); otherwise the items due by the clock arrive. The items are made beforehand: their
     * making is not the table's cost.
     */
    /** Back to the newest rows. */
    toTop(): void {
      rows?.scrollToIndex(0, 'start');
    },
    async live(rate: number, seconds: number, scroll: boolean, paced = false): Promise<LiveFrames> {
      const frames: number[] = [];
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries()) longTasks.push(entry.duration);
      });
      const first = list.store.count + 1;
      const made = Math.ceil(rate * seconds * 1.5) + 1;
      const fresh = generateItems(made, liveClock).map((item, i) => ({ ...item, id: `live-${first + i}`, num: first + i }));
      liveClock += made * ITEM_SPACING_MS;
      let taken = 0;
      observer.observe({ type: 'longtask', buffered: false });
      const end = performance.now() + seconds * 1000;
      let frameCount = 0;
      let last = performance.now();
      let due = 0;
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          frames.push(now - last);
          due += paced ? rate / 60 : ((now - last) * rate) / 1000;
          last = now;
          const n = Math.min(Math.floor(due), fresh.length - taken);
          due -= n;
          if (n > 0) {
            const batch = fresh.slice(taken, taken + n);
            taken += n;
            list.store.upsertMany(batch);
            list.newRows.mark(batch.map((item) => item.id));
          }
          if (scroll) rows?.scrollBy(37);
          frameCount++;
          if (paced ? frameCount <= seconds * 60 : now < end) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      return { frames: frames.slice(1).sort((a, b) => a - b), longTasks };
    },
  },
});
