/**
 * Exports of captured items (spec 001 'Export modal', §4 'Export dialog', §7, §9): json, csv and
 * har, built in the browser a slice at a time. Each format is an encoder that turns slices of
 * items into text parts; `runExport` drives it, reports progress 0 to 100 and yields to the UI
 * every 100 items, so a large export neither blocks the page nor holds the whole file as one string.
 */
import { csvExportEncoder } from './export-csv';
import { harExportEncoder } from './export-har';
import { jsonExportEncoder } from './export-json';
import type { CapturedItem } from './items';

export const EXPORT_FORMATS = ['json', 'csv', 'har'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FILES: Readonly<Record<ExportFormat, { fileName: string; mimeType: string }>> = {
  json: { fileName: 'spyglass-requests.json', mimeType: 'application/json' },
  csv: { fileName: 'spyglass-requests.csv', mimeType: 'text/csv;charset=utf-8' },
  har: { fileName: 'spyglass-requests.har', mimeType: 'application/json' },
};

/** Spec 001 §9: progress step every 100 items; the preview shows the first 10. */
export const EXPORT_PROGRESS_STEP = 100;
export const EXPORT_PREVIEW_COUNT = 10;

/** Turns items into one format's text: `begin`, then `encode` for consecutive slices, then `end`. */
export interface ExportEncoder {
  begin(): string;
  encode(items: ArrayLike<CapturedItem>, from: number, to: number): string;
  end(): string;
}

export interface RunExportOptions {
  /** Receives the file a part at a time (in the browser: collect Blob parts). */
  write: (part: string) => void;
  /** Progress 0 to 100, first 0 and last 100. */
  onProgress?: (percent: number) => void;
  /** Gives the UI a turn between slices; defaults to a macrotask. */
  pause?: () => Promise<void>;
  /** Items per slice (spec: 100). */
  step?: number;
  /** Stops the export between two slices. */
  signal?: AbortSignal;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Writes the whole export of `items` through `encoder`, yielding between slices. */
export async function runExport(encoder: ExportEncoder, items: ArrayLike<CapturedItem>, options: RunExportOptions): Promise<void> {
  const step = Math.max(1, options.step ?? EXPORT_PROGRESS_STEP);
  const pause = options.pause ?? macrotask;
  const total = items.length;
  options.onProgress?.(0);
  options.write(encoder.begin());
  for (let from = 0; from < total; from += step) {
    options.signal?.throwIfAborted();
    const to = Math.min(from + step, total);
    const part = encoder.encode(items, from, to);
    if (part !== '') options.write(part);
    options.onProgress?.(Math.floor((to / total) * 100));
    if (to < total) await pause();
  }
  options.write(encoder.end());
  if (total === 0) options.onProgress?.(100);
}

/** The whole export as one string, at once: for small lists, the preview and tests. */
export function buildExport(encoder: ExportEncoder, items: ArrayLike<CapturedItem>): string {
  return encoder.begin() + encoder.encode(items, 0, items.length) + encoder.end();
}

export function exportEncoder(format: ExportFormat): ExportEncoder {
  switch (format) {
    case 'json': return jsonExportEncoder();
    case 'csv': return csvExportEncoder();
    case 'har': return harExportEncoder();
  }
}

/** The export modal's preview: the file as it would start, with the first 10 exported items. */
export function exportPreview(format: ExportFormat, items: readonly CapturedItem[]): string {
  const first: CapturedItem[] = [];
  for (const item of items) {
    if (format === 'har' && item.type !== 'network') continue;
    first.push(item);
    if (first.length === EXPORT_PREVIEW_COUNT) break;
  }
  return buildExport(exportEncoder(format), first);
}
