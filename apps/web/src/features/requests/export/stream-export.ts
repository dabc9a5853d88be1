/**
 * The export modal's engine: encodes the items of the list (selection or filtered rows) into one
 * file, EXPORT_PROGRESS_STEP items at a time (spec 001 §4 'Export dialog', §9), fetching the full
 * items (bodies, images) only where the list's compact item lacks them.
 *
 * Full items come a batch at a time, one batch ahead of the encoder: on a device, one
 * POST /v1/requests/lookup per batch; in a saved session, one GET per item with a few in flight
 * (`oneAtATime`). Memory stays bounded: at most two batches of full items live at a time, and the
 * text made so far is folded into Blobs, which the browser keeps outside the JavaScript heap.
 */
import {
  EXPORT_FILES, EXPORT_PROGRESS_STEP, exportEncoder, type CapturedItem, type CompactItem, type ExportFormat,
} from '@spyglass/protocol';
import { macrotask } from '../store/time-slicer';

export type LoadItem = (id: string) => Promise<CapturedItem>;
/** Full items with these ids, in any order; an id no longer held may be left out. */
export type LoadItems = (ids: readonly string[], signal?: AbortSignal) => Promise<CapturedItem[]>;

/** Requests for full items in flight at once: about what a browser opens per host over HTTP/1.1. */
export const LOAD_CONCURRENCY = 6;
/** The UTF-8 bytes collected before they are folded into a Blob. */
const FOLD_BYTES = 8 * 1024 * 1024;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3;

/** HAR holds network items only (spec 001 §5); the other formats take every item. */
export function itemsForFormat(format: ExportFormat, items: readonly CompactItem[]): readonly CompactItem[] {
  return format === 'har' ? items.filter((item) => item.type === 'network') : items;
}

/**
 * Whether the export needs more than the list's compact item: the csv columns are all in it;
 * json and har want bodies, and json the screenshot image.
 */
export function needsFullItem(format: ExportFormat, item: CompactItem): boolean {
  if (format === 'csv') return false;
  if (item.type === 'network') return item.hasRequestBody === true || item.hasResponseBody === true;
  return format === 'json' && item.type === 'screenshot';
}

/** Batch loads made of single loads, `concurrency` at a time (where there is no batch endpoint). */
export function oneAtATime(loadItem: LoadItem, concurrency = LOAD_CONCURRENCY): LoadItems {
  return async (ids, signal) => {
    const out: CapturedItem[] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        signal?.throwIfAborted();
        out.push(await loadItem(id));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
    return out;
  };
}

/**
 * Full items of a batch, in its order. An item the loader left out (deleted since it was listed)
 * is exported as the list shows it.
 */
export async function loadBatch(format: ExportFormat, batch: readonly CompactItem[], loadItems: LoadItems, signal?: AbortSignal): Promise<CapturedItem[]> {
  const ids = batch.filter((item) => needsFullItem(format, item)).map((item) => item.id);
  if (ids.length === 0) return batch.slice();
  const full = new Map((await loadItems(ids, signal)).map((item) => [item.id, item]));
  return batch.map((item) => full.get(item.id) ?? item);
}

/**
 * Collects the file's text and keeps it out of the heap in Blobs as it grows. Each part is encoded
 * at once into one reused buffer, which becomes a Blob (a copy) when full: cheaper than handing
 * the Blob megabytes of held strings (bench 40), and each part is garbage as soon as it is written.
 */
export class BlobSink {
  private readonly encoder = new TextEncoder();
  private readonly buffer = new Uint8Array(FOLD_BYTES);
  private used = 0;
  private blobs: Blob[] = [];

  write = (part: string): void => {
    if (part.length * MAX_UTF8_PER_UNIT > this.buffer.length - this.used) {
      this.fold();
      if (part.length * MAX_UTF8_PER_UNIT > this.buffer.length) {
        this.blobs.push(new Blob([part]));
        return;
      }
    }
    this.used += this.encoder.encodeInto(part, this.buffer.subarray(this.used)).written;
  };

  finish(mimeType: string): Blob {
    this.fold();
    return new Blob(this.blobs, { type: mimeType });
  }

  private fold(): void {
    if (this.used === 0) return;
    // The Blob copies the bytes: the buffer is free to be written again.
    this.blobs.push(new Blob([this.buffer.subarray(0, this.used)]));
    this.used = 0;
  }
}

export interface StreamExportOptions {
  format: ExportFormat;
  items: readonly CompactItem[];
  loadItems: LoadItems;
  write: (part: string) => void;
  /** 0 first, 100 last. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Gives the UI a turn between batches; defaults to a macrotask. */
  pause?: () => Promise<void>;
  step?: number;
}

/** Writes the export of `items` through the format's encoder, loading full items a batch ahead. */
export async function streamExport(options: StreamExportOptions): Promise<void> {
  const { format, loadItems, write, onProgress, signal } = options;
  const items = itemsForFormat(format, options.items);
  const step = Math.max(1, options.step ?? EXPORT_PROGRESS_STEP);
  const pause = options.pause ?? macrotask;
  const load = (from: number) => loadBatch(format, items.slice(from, from + step), loadItems, signal);
  const encoder = exportEncoder(format);

  onProgress?.(0);
  write(encoder.begin());
  let pending = items.length > 0 ? load(0) : null;
  for (let from = 0; pending; from += step) {
    const batch = await pending;
    signal?.throwIfAborted();
    const to = from + batch.length;
    // The next batch loads while this one is encoded and the UI has its turn.
    pending = to < items.length ? load(to) : null;
    // Keep a failed prefetch from being reported as unhandled when this batch's encoding throws first.
    pending?.catch(() => undefined);
    const part = encoder.encode(batch, 0, batch.length);
    if (part !== '') write(part);
    onProgress?.(Math.floor((to / items.length) * 100));
    if (pending) await pause();
  }
  write(encoder.end());
  if (items.length === 0) onProgress?.(100);
}

/** The whole export as a Blob with the spec's file name and type. */
export async function exportToBlob(options: Omit<StreamExportOptions, 'write'>): Promise<{ blob: Blob; fileName: string }> {
  const sink = new BlobSink();
  await streamExport({ ...options, write: sink.write });
  const file = EXPORT_FILES[options.format];
  return { blob: sink.finish(file.mimeType), fileName: file.fileName };
}

/** Saves a Blob through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its own reference by the time the click returns; a later revoke keeps
  // browsers that start it asynchronously safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
