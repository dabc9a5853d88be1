/**
 * The inspector benchmark page (bench/suites/40-inspector-browser.ts, issue 5 'Performance'),
 * inspector-bench.html: not part of the app's build; the benchmark builds it with the app's Vite
 * configuration (bench/browser-page.ts). It runs the real list store, live feed, list filter,
 * VirtualRows and bar chart in Chromium with generated items, and offers the measurements to the
 * benchmark through `window.inspectorBench`.
 */
import {
  formatTimestamp, harEntry, initialSearchState, itemSummary, searchReducer, type CapturedItem, type CompactItem, type ItemCategory, type NetworkItem,
  type ViewerOutbound,
} from '@spyglass/protocol';
import { generateItems } from '../../packages/protocol/src/item-fixtures';
import { createRoot } from 'react-dom/client';
import { useRef } from 'react';
import { BarChart } from '../../apps/web/src/features/requests/chart/bar-chart';
import { exportToBlob } from '../../apps/web/src/features/requests/export/stream-export';
import { VirtualRows, type VirtualRowsHandle } from '../../apps/web/src/features/requests/list/virtual-rows';
import { ListFilterBinding } from '../../apps/web/src/features/requests/search/list-filter';
import { ListStore } from '../../apps/web/src/features/requests/store/list-store';
import { LiveFeed } from '../../apps/web/src/features/requests/store/live-feed';
import { useRow, useRowCount } from '../../apps/web/src/features/requests/store/use-list-store';
import '../../apps/web/src/styles/index.css';

const DEVICE = 'bench-device';
const store = new ListStore();
/** Time of each write into the store (the live feed's per-frame flush), to tell store cost from the rest of a frame. */
const writeMs: number[] = [];
const upsertMany = store.upsertMany.bind(store);
store.upsertMany = (items) => {
  const t0 = performance.now();
  upsertMany(items);
  writeMs.push(performance.now() - t0);
};
const feed = new LiveFeed(store, DEVICE);
const filters = new ListFilterBinding(store);
let list: VirtualRowsHandle | null = null;

function Row({ index }: { index: number }) {
  const item = useRow(store, index);
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
  const count = useRowCount(store);
  const ref = useRef<VirtualRowsHandle>(null);
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <BarChart store={store} onBinClick={(index) => ref.current?.scrollToIndex(index, 'start')} />
      <VirtualRows
        ref={(handle) => {
          ref.current = handle;
          list = handle;
        }}
        count={count}
        renderRow={(index) => <Row index={index} />}
        rowKey={(index) => store.rowAt(index)?.id ?? index}
        indexOfKey={(key) => store.indexOfId(String(key))}
        style={{ flex: 1 }}
        ariaLabel="Requests"
      />
    </div>
  );
}

/** Long tasks of the page (over 50 ms), as the browser reports them. */
const longTasks: number[] = [];
new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? Number.NaN;
const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function untilSettled(): Promise<void> {
  while (store.isRecomputing) await idle();
}

/** The network items of the generated list as GET /v1/requests/{id} gives them: with their bodies. */
function withBodies(item: CompactItem): CapturedItem {
  if (item.type !== 'network') return item;
  const { hasRequestBody: _req, hasResponseBody: _res, ...rest } = item;
  const body = JSON.stringify({ id: item.num, items: [{ sku: `SKU-${item.num}`, qty: item.num % 5, price: 9.99 }], note: 'Käse 🧀 "quoted"' });
  return { ...rest, details: { ...rest.details, response: { ...rest.details.response!, body } } };
}

/** The first `n` shown items (network items for HAR) and their full forms. */
function exportInput(format: 'har' | 'csv', n: number): { items: CompactItem[]; full: Map<string, CapturedItem> } {
  const items: CompactItem[] = [];
  for (const item of store.rows()) {
    if (format === 'har' && item.type !== 'network') continue;
    items.push(item);
    if (items.length === n) break;
  }
  const full = new Map<string, CapturedItem>();
  for (const item of items) full.set(item.id, withBodies(item));
  return { items, full };
}

let nextNum = 1;
let liveStart = Date.UTC(2026, 10, 20);

const bench = {
  /** Adds `n` generated items to the store (as history pages would), in pages of 5,000. */
  async load(n: number): Promise<{ ms: number }> {
    const t0 = performance.now();
    for (let done = 0; done < n; done += 5000) {
      const page = generateItems(Math.min(5000, n - done), liveStart);
      for (const item of page) {
        item.num = nextNum;
        item.id = `i-${nextNum++}`;
      }
      liveStart += page.length * 37;
      store.upsertMany(page);
      await idle();
    }
    await untilSettled();
    return { ms: performance.now() - t0 };
  },

  clear(): void {
    store.clear();
  },

  count: () => store.count,

  /** JS heap in use after a full collection, in bytes. */
  async heap(): Promise<number> {
    await idle();
    gc();
    return heap();
  },

  /**
   * Receives `rate` items/s through the live feed while scrolling the list by `scrollPx` per
   * frame, for `seconds`: frame times (between animation frames) and long tasks.
   */
  async liveAndScroll(rate: number, seconds: number, scrollPx = 45): Promise<{ frames: number[]; longTasks: number[]; writes: number[]; received: number }> {
    longTasks.length = 0;
    writeMs.length = 0;
    let received = 0;
    const started = performance.now();
    let sent = 0;
    const timer = setInterval(() => {
      const due = Math.floor(((performance.now() - started) / 1000) * rate) - sent;
      if (due <= 0) return;
      const items = generateItems(due, liveStart);
      liveStart += due * 37;
      for (const item of items) {
        item.num = nextNum;
        item.id = `i-${nextNum++}`;
        const message: ViewerOutbound = { type: 'new_request', deviceId: DEVICE, request: item } as ViewerOutbound;
        feed.push(message);
      }
      sent += due;
      received += due;
    }, 10);
    const frames: number[] = [];
    let last = await frame();
    let direction = 1;
    while (performance.now() - started < seconds * 1000) {
      list?.scrollBy(direction * scrollPx);
      if (list?.isAtEnd()) direction = -1;
      else if (list && list.getOffset() <= 0) direction = 1;
      const now = await frame();
      frames.push(now - last);
      last = now;
    }
    clearInterval(timer);
    feed.flush();
    await idle();
    return { frames, longTasks: longTasks.slice(), writes: writeMs.slice(), received };
  },

  /** Applies a filter bar category and a search tag through the list's filter binding; time until the view shows it. */
  async filter(category: ItemCategory, text: string): Promise<{ ms: number; shown: number; longTasks: number[] }> {
    longTasks.length = 0;
    const search = text === '' ? initialSearchState() : searchReducer(searchReducer(initialSearchState(), { type: 'input', value: text }), { type: 'commit' });
    const t0 = performance.now();
    filters.apply(category, search);
    await untilSettled();
    const ms = performance.now() - t0;
    await frame();
    return { ms, shown: store.count, longTasks: longTasks.slice() };
  },

  /**
   * Exports the first `n` shown items (network items for HAR) as the modal does: `ms` for the
   * file (a Blob); with `sampleHeap`, `peakExtraMb` the highest heap growth seen at the progress steps.
   */
  async exportFile(format: 'har' | 'csv', n: number, sampleHeap: boolean): Promise<{ ms: number; peakExtraMb: number; bytes: number; items: number }> {
    const { items, full } = exportInput(format, n);
    gc();
    const before = heap();
    let peak = before;
    const t0 = performance.now();
    const { blob } = await exportToBlob({
      format,
      items,
      loadItems: (ids) => Promise.resolve(ids.map((id) => full.get(id)!)),
      // Precise heap readings cost about a millisecond each: taken only in the run that measures memory, not the timed one.
      onProgress: sampleHeap
        ? () => {
          const h = heap();
          if (h > peak) peak = h;
        }
        : undefined,
    });
    return { ms: performance.now() - t0, peakExtraMb: (peak - before) / 1024 / 1024, bytes: blob.size, items: items.length };
  },

  /** The baseline: the same HAR entries (or, for csv, the same items) through one bare JSON.stringify. */
  exportBaseline(format: 'har' | 'csv', n: number): { ms: number } {
    const { items, full } = exportInput(format, n);
    const entries = format === 'har' ? items.map((item) => harEntry(full.get(item.id) as NetworkItem)) : items;
    const t0 = performance.now();
    const text = JSON.stringify(entries);
    const ms = performance.now() - t0;
    if (text.length === 0) throw new Error('empty baseline');
    return { ms };
  },
};

declare global {
  interface Window {
    inspectorBench: typeof bench;
  }
}
window.inspectorBench = bench;
createRoot(document.getElementById('root')!).render(<Page />);
