import { formatSize } from '@spyglass/protocol';
import { Copy, Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';
import { toast } from 'sonner';
import { IconButton } from '../../../ui/button';
import { useMediaViewer } from '../media-viewer/media-viewer';
import { base64ByteLength, detectBodyKind, formFields, headerValue, LARGE_JSON_CHARS, mediaType, mediaTypeOf, SHOW_ANYWAY_CHARS, type BodyKind, type CapturedBodyFields } from './body-kind';
import { base64Bytes, downloadName, hexDump, useCapturedUrl } from './captured-media';
import type { BodyView as BodyViewChoice } from './details-choices';
import { useFormattedJson } from './json-format';
import { JsonTree } from './json-tree';
import { KeyValueTable } from './key-value-table';
import { TextBlock } from './text-block';
import { previewDocument } from './html-preview';
import { formatXml } from './xml-format';

export interface BodyFields extends CapturedBodyFields {
  bodyTruncated?: boolean;
  bodySize?: number;
}

/** The views a kind offers, in order; the first is its default. */
const VIEWS: Partial<Record<BodyKind, Array<[BodyViewChoice, string]>>> = {
  json: [['pretty', 'Tree'], ['raw', 'Raw']],
  xml: [['pretty', 'Pretty'], ['raw', 'Raw']],
  html: [['pretty', 'Source'], ['raw', 'Raw'], ['preview', 'Preview']],
  form: [['pretty', 'Table'], ['raw', 'Raw']],
};

const KIND_LABELS: Record<BodyKind, string> = {
  empty: '', invalid: '', json: 'JSON', xml: 'XML', html: 'HTML', form: 'Form data', image: 'Image', video: 'Video', binary: 'Binary', text: 'Text',
};

/**
 * A request or response body (spec 001 'Details panel'). Everything captured is rendered as text
 * nodes, as an image or video from its own bytes, or (HTML preview) in a frame with every sandbox
 * restriction on: scripts, forms, popups and same-origin access are all off.
 */
export function BodyView({ side, part, url, view, onViewChange }: {
  side: 'request' | 'response';
  part: BodyFields;
  url: string;
  view: BodyViewChoice;
  onViewChange(view: BodyViewChoice): void;
}) {
  const contentType = headerValue(part.headers, 'content-type');
  const kind = useMemo(() => detectBodyKind(part.body, part.bodyEncoding, contentType), [part.body, part.bodyEncoding, contentType]);
  // The SDK sends the size; computing it re-encodes the whole body, so it is done once.
  const size = useMemo(() => {
    if (part.bodySize !== undefined || typeof part.body !== 'string') return part.bodySize;
    return part.bodyEncoding === 'base64' ? base64ByteLength(part.body) : new Blob([part.body]).size;
  }, [part.body, part.bodyEncoding, part.bodySize]);
  // The body the reader chose to see despite its size; another body asks again.
  const [shownAnyway, setShownAnyway] = useState<string | null>(null);
  if (kind === 'empty') return <p className="details-empty">No body</p>;
  if (kind === 'invalid') {
    return <p className="details-error" role="alert">{side === 'response' ? 'Invalid body from server!' : 'Invalid body from client!'}</p>;
  }
  const body = part.body as string;
  const views = VIEWS[kind];
  const shown = views?.find(([v]) => v === view)?.[0] ?? views?.[0]?.[0];
  const large = kind === 'json' && body.length > LARGE_JSON_CHARS;

  return (
    <div className="body-view" data-kind={kind}>
      <div className="body-toolbar">
        <span className="body-kind">{large ? 'Large JSON' : KIND_LABELS[kind]}</span>
        <span className="body-meta">{formatSize(size)}{mediaType(contentType) && ` · ${mediaType(contentType)}`}</span>
        {/* The size beside it is what the app sent; the device kept its first 5 MB. */}
        {part.bodyTruncated && <span className="body-truncated">Truncated by the device</span>}
        <span className="body-toolbar-gap" />
        {views && shown && (
          <div className="details-segmented" role="group" aria-label="Body view">
            {views.map(([v, label]) => (
              <button key={v} type="button" className="details-segmented-item" aria-pressed={v === shown} onClick={() => onViewChange(v)}>{label}</button>
            ))}
          </div>
        )}
        {part.bodyEncoding !== 'base64' && <CopyBody text={body} />}
        {(kind === 'binary' || kind === 'image' || kind === 'video') && (
          <DownloadBody body={body} encoding={part.bodyEncoding} type={mediaTypeOf(body, part.bodyEncoding, contentType)} url={url} side={side} />
        )}
      </div>
      {body.length >= SHOW_ANYWAY_CHARS && shownAnyway !== body
        ? <ShowAnyway size={size ?? body.length} onShow={() => setShownAnyway(body)} />
        : <BodyContent kind={kind} body={body} encoding={part.bodyEncoding} contentType={contentType} view={shown} side={side} url={url} />}
    </div>
  );
}

/** Proxyman's step for a body of 5 MB or more: nothing is drawn until asked. */
function ShowAnyway({ size, onShow }: { size: number; onShow(): void }) {
  return (
    <div className="body-show-anyway">
      <p>This body is {formatSize(size)}. Showing it may slow the page down for a while.</p>
      <Button size="sm" onClick={onShow}>Show anyway</Button>
    </div>
  );
}

function BodyContent({ kind, body, encoding, contentType, view, side, url }: {
  kind: BodyKind;
  body: string;
  encoding: 'utf8' | 'base64' | undefined;
  contentType: string | undefined;
  view: BodyViewChoice | undefined;
  side: 'request' | 'response';
  url: string;
}) {
  switch (kind) {
    case 'json':
      return view === 'raw' ? <PrettyJsonText body={body} /> : <JsonBody body={body} side={side} />;
    case 'xml':
      return <MarkupBody body={body} pretty={view !== 'raw'} />;
    case 'html':
      return view === 'preview' ? <HtmlPreview html={body} /> : <MarkupBody body={body} pretty={view === 'pretty'} html />;
    case 'form':
      return view === 'raw'
        ? <TextBlock text={body} />
        : <KeyValueTable rows={formFields(body).map(([key, value]) => ({ key, value }))} label="Form data" />;
    case 'image':
    case 'video':
      return <MediaBody kind={kind} body={body} encoding={encoding} type={mediaTypeOf(body, encoding, contentType)} name={`${side === 'response' ? 'Response' : 'Request'} body of ${url}`} />;
    case 'binary':
      return <BinaryBody body={body} />;
    default:
      return <TextBlock text={body} />;
  }
}

function JsonBody({ body, side }: { body: string; side: string }) {
  const formatted = useFormattedJson(body);
  if (!formatted) return <Formatting />;
  if (!formatted.ok) return <TextBlock text={body} />;
  return <JsonTree value={formatted.value} label={`${side === 'response' ? 'Response' : 'Request'} body`} />;
}

function PrettyJsonText({ body }: { body: string }) {
  const formatted = useFormattedJson(body);
  if (!formatted) return <Formatting />;
  return <TextBlock text={formatted.ok ? formatted.pretty : body} />;
}

/** Shown while a worker parses a large body. */
function Formatting() {
  return <p className="details-empty body-formatting" role="status"><Spinner size={12} /> Formatting...</p>;
}

function MarkupBody({ body, pretty, html = false }: { body: string; pretty: boolean; html?: boolean }) {
  const text = useMemo(() => (pretty ? formatXml(body, { html }) : body), [body, pretty, html]);
  return <TextBlock text={text} />;
}

function HtmlPreview({ html }: { html: string }) {
  const srcDoc = useMemo(() => previewDocument(html), [html]);
  // sandbox="" turns on every restriction: no scripts, no same-origin, no forms, no popups, no top navigation.
  return <iframe className="body-html-preview" title="HTML preview" sandbox="" srcDoc={srcDoc} referrerPolicy="no-referrer" />;
}

/** Spec 001 §9: response media preview max height 300 px; a click enlarges it in the media viewer. */
function MediaBody({ kind, body, encoding, type, name }: {
  kind: 'image' | 'video';
  body: string;
  encoding: 'utf8' | 'base64' | undefined;
  type: string;
  name: string;
}) {
  const src = useCapturedUrl(body, encoding, type);
  const viewer = useMediaViewer();
  const [dimensions, setDimensions] = useState<string>();
  if (!src) return null;
  if (kind === 'video') {
    return (
      <video className="body-media" src={src} controls>
        Your browser does not support the video tag.
      </video>
    );
  }
  return (
    <div className="body-image">
      <button type="button" className="body-image-button" onClick={() => viewer.show({ kind: 'image', src, name })} aria-label="Enlarge image">
        <img
          className="body-media"
          src={src}
          alt={name}
          onLoad={(event) => setDimensions(`${event.currentTarget.naturalWidth} × ${event.currentTarget.naturalHeight}`)}
        />
      </button>
      {dimensions && <span className="body-meta">{dimensions}</span>}
    </div>
  );
}

function BinaryBody({ body }: { body: string }) {
  const dump = useMemo(() => {
    try {
      return hexDump(base64Bytes(body.slice(0, 1024)));
    } catch {
      return body.slice(0, 1024);
    }
  }, [body]);
  return (
    <div className="body-binary">
      <p className="details-empty">Binary content: the first bytes are shown; Download saves all of it.</p>
      <TextBlock text={dump} />
    </div>
  );
}

function CopyBody({ text }: { text: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Copied to clipboard');
    } catch (error) {
      console.error('Copying to the clipboard failed', error);
    }
  };
  return (
    <IconButton label="Copy body" className="details-icon-sm" onClick={() => void copy()}>
      <Copy size={14} aria-hidden="true" />
    </IconButton>
  );
}

function DownloadBody({ body, encoding, type, url, side }: { body: string; encoding: 'utf8' | 'base64' | undefined; type: string; url: string; side: string }) {
  const href = useCapturedUrl(body, encoding, type);
  if (!href) return null;
  return (
    <a className="icon-btn details-icon-sm" href={href} download={downloadName(url, `${side}-body`, type)} aria-label="Download body" title="Download body">
      <Download size={14} aria-hidden="true" />
    </a>
  );
}
