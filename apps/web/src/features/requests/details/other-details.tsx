import type { CapturedItem } from '@spyglass/protocol';
import { Download, Maximize2 } from 'lucide-react';
import { useMediaViewer } from '../media-viewer/media-viewer';
import { downloadName, useCapturedUrl } from './captured-media';
import { JsonTree } from './json-tree';
import { KeyValueTable, type KeyValueRow } from './key-value-table';

type Of<T extends CapturedItem['type']> = Extract<CapturedItem, { type: T }>;

/** Spec 001 'Details panel': an event shows the JSON of its details. */
export function EventDetails({ item }: { item: Of<'event'> }) {
  return <JsonTree value={item.details} label="Event details" />;
}

/** Spec 001 'Details panel': an analytics event shows a metadata table (id, category) and its JSON payload. */
export function AnalyticsDetails({ item }: { item: Of<'firebaseAnalytics'> }) {
  const rows: KeyValueRow[] = [{ key: 'id', value: item.id }, { key: 'name', value: item.details.name }];
  if (item.details.category) rows.push({ key: 'category', value: item.details.category });
  if (item.details.level) rows.push({ key: 'level', value: item.details.level });
  return (
    <div className="details-stack">
      <section aria-label="Metadata">
        <h4 className="details-section-title">Metadata</h4>
        <KeyValueTable rows={rows} label="Analytics metadata" />
      </section>
      <section aria-label="Payload">
        <h4 className="details-section-title">Payload</h4>
        <JsonTree value={item.details.payload ?? {}} label="Analytics payload" />
      </section>
    </div>
  );
}

const SCREENSHOT_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** Spec 001 'Details panel': the screenshot with a Download button; a click enlarges it. */
export function ScreenshotDetails({ item }: { item: Of<'screenshot'> }) {
  const { details } = item;
  const type = details.mimeType && SCREENSHOT_TYPES.has(details.mimeType) ? details.mimeType : 'image/png';
  const src = useCapturedUrl(details.image, 'base64', type);
  const viewer = useMediaViewer();
  if (!details.image) return <p className="details-empty">No image</p>;
  if (!src) return null;
  const enlarge = () => viewer.show({ kind: 'image', src, name: details.name });
  return (
    <div className="screenshot-details">
      <button type="button" className="screenshot-image-button" onClick={enlarge} aria-label="Enlarge screenshot">
        <img className="screenshot-image" src={src} alt={details.name} />
      </button>
      <div className="screenshot-actions">
        <a className="btn btn-secondary btn-sm" href={src} download={downloadName(undefined, details.name, type)}>
          <Download size={14} aria-hidden="true" /> Download
        </a>
        <button type="button" className="btn btn-ghost btn-sm" onClick={enlarge}>
          <Maximize2 size={14} aria-hidden="true" /> Enlarge
        </button>
        {details.width !== undefined && details.height !== undefined && (
          <span className="body-meta">{details.width} × {details.height}</span>
        )}
      </div>
    </div>
  );
}
