import {
  EXPORT_FILES, EXPORT_FORMATS, EXPORT_PREVIEW_COUNT, exportPreview, type CompactItem, type ExportFormat,
} from '@spyglass/protocol';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { downloadBlob, exportToBlob, itemsForFormat, loadBatch, type LoadItems } from './stream-export';
import './export-modal.css';

export interface ExportModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The items to export, read when the modal opens: the selection when there is one, else the
   * filtered list (`exportedItems(store)`).
   */
  items: () => readonly CompactItem[] | Promise<readonly CompactItem[]>;
  /** Full items (bodies, images), a batch at a time: POST /v1/requests/lookup for a device, the session's own otherwise. */
  loadItems: LoadItems;
}

const FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = { json: 'JSON', csv: 'CSV', har: 'HAR' };

function countText(count: number, format: ExportFormat): string {
  const noun = format === 'har' ? 'network request' : 'request';
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** The preview indented for reading (the file itself stays compact: one item per line). */
function readablePreview(format: ExportFormat, text: string): string {
  return format === 'csv' ? text : JSON.stringify(JSON.parse(text), null, 2);
}

/**
 * Export modal (spec 001 'Export modal', §4 'Export dialog', §9): json, csv or har, a preview of
 * the first 10 requests, progress 0 to 100 while the file is built (yielding to the UI every 100
 * items), then the download of spyglass-requests.{json,csv,har} and the modal closes.
 */
export function ExportModal({ open, onOpenChange, items, loadItems }: ExportModalProps) {
  const [format, setFormat] = useState<ExportFormat>('json');
  const [source, setSource] = useState<readonly CompactItem[] | null>(null);
  const [preview, setPreview] = useState<{ format: ExportFormat; text: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const running = useRef<AbortController | null>(null);
  // Read once per opening: rows arriving meanwhile do not change what is being exported.
  const itemsRef = useRef(items);
  itemsRef.current = items;

  useEffect(() => {
    if (!open) {
      setSource(null);
      setPreview(null);
      setProgress(null);
      return;
    }
    let live = true;
    void Promise.resolve(itemsRef.current()).then((list) => {
      if (live) setSource(list);
    });
    return () => {
      live = false;
    };
  }, [open]);

  useEffect(() => {
    if (!source) return;
    const controller = new AbortController();
    const first = itemsForFormat(format, source).slice(0, EXPORT_PREVIEW_COUNT);
    loadBatch(format, first, loadItems, controller.signal).then(
      (full) => {
        if (!controller.signal.aborted) setPreview({ format, text: readablePreview(format, exportPreview(format, full)) });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Export preview failed', error);
        setPreview({ format, text: '' });
      },
    );
    return () => controller.abort();
  }, [source, format, loadItems]);

  useEffect(() => () => running.current?.abort(), []);

  const count = source ? itemsForFormat(format, source).length : null;
  const file = EXPORT_FILES[format];
  const busy = progress !== null;

  const start = async () => {
    if (!source) return;
    const controller = new AbortController();
    running.current = controller;
    setProgress(0);
    try {
      const { blob, fileName } = await exportToBlob({ format, items: source, loadItems, signal: controller.signal, onProgress: setProgress });
      downloadBlob(blob, fileName);
      onOpenChange(false);
    } catch (error) {
      if (controller.signal.aborted) return;
      console.error('Export failed', error);
      toast.error('Export failed');
      setProgress(null);
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  const close = (next: boolean) => {
    if (!next) running.current?.abort();
    onOpenChange(next);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Export"
      description={count === null ? 'Counting requests...' : `${countText(count, format)} to ${file.fileName}`}
      size="lg"
      actions={(
        <>
          <Button variant="ghost" onClick={() => close(false)}>Cancel</Button>
          <Button variant="primary" onClick={() => void start()} loading={busy} disabled={!count}>Export</Button>
        </>
      )}
    >
      <div className="export-formats" role="radiogroup" aria-label="Format">
        {EXPORT_FORMATS.map((f) => (
          <button
            key={f}
            type="button"
            role="radio"
            aria-checked={f === format}
            className="export-format"
            disabled={busy}
            onClick={() => setFormat(f)}
          >
            {FORMAT_LABELS[f]}
          </button>
        ))}
      </div>
      <div className="export-preview">
        <div className="export-preview-head">Preview (first {EXPORT_PREVIEW_COUNT} requests)</div>
        {preview?.format === format ? (
          <pre className="export-preview-text" aria-label="Preview" tabIndex={0}>{preview.text || 'Preview not available'}</pre>
        ) : (
          <div className="export-preview-loading"><Spinner size={16} label="Loading preview" /></div>
        )}
      </div>
      {busy && (
        <div className="export-progress">
          <div className="export-progress-bar" role="progressbar" aria-label="Export progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <span style={{ width: `${progress}%` }} />
          </div>
          <span className="export-progress-value">{progress}%</span>
        </div>
      )}
    </Dialog>
  );
}
