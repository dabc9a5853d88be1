import { isInFlight, itemSummary, type CapturedItem } from '@spyglass/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleHelp, Maximize2, Minimize2, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button, IconButton } from '../../../ui/button';
import { ResizeHandle } from '../../../ui/resize-handle';
import { Spinner } from '../../../ui/spinner';
import { Tooltip } from '../../../ui/tooltip';
import { reportTourEvent } from '../../../lib/tour-events';
import type { InspectorMode } from '../inspector/inspector-mode';
import type { ItemMocking, ItemMockState } from '../inspector/item-mocking';
import { MediaViewerProvider } from '../media-viewer/media-viewer';
import { useDetailsChoices } from './details-choices';
import { DETAILS_MIN_HEIGHT, maxDetailsHeight, shownDetailsHeight } from './panel-height';
import { useAreaHeight } from './use-area-height';
import './details-panel.css';

const ItemDetails = lazy(() => import('./item-details'));

/**
 * The TanStack Query key of a full item in the panel. Mode and device are part of it: a session's
 * copy of an item is not the live device's.
 */
const detailsItemKey = (mode: InspectorMode, deviceId: string, itemId: string) => ['request-item', mode, deviceId, itemId] as const;

export interface DetailsPanelProps {
  itemId: string;
  /**
   * Whether the list's copy of the item still waits for its response. The full item is fetched
   * once; opened in flight, it is fetched again when the list sees the answer arrive.
   */
  inFlight?: boolean;
  deviceId: string;
  mode: InspectorMode;
  /** The full item, bodies included (device mode: GET /v1/requests/{id}). */
  loadItem(id: string): Promise<CapturedItem>;
  onClose(): void;
  /** The mock editor of a network item ('Enable Mock ⚡'), shown in the response panel in device mode only. */
  mockSection?: ItemMocking['section'];
}

/**
 * The details panel at the bottom of the request list (spec 001 'Details panel'): resizable from
 * 100 px to 80 % of the content area, expand/collapse, close, Escape. The full item is fetched
 * when the panel opens it; the viewers are loaded lazily.
 */
export function DetailsPanel({ itemId, inFlight = false, deviceId, mode, loadItem, onClose, mockSection }: DetailsPanelProps) {
  const panel = useRef<HTMLElement>(null);
  const areaHeight = useAreaHeight(panel);
  const [choices, choose] = useDetailsChoices();
  const [expanded, setExpanded] = useState(false);
  const [dragHeight, setDragHeight] = useState<number | null>(null);
  const height = dragHeight ?? shownDetailsHeight(choices.height, expanded, areaHeight);

  // Moving through the rows keeps the last item shown (dimmed) until the next one is in, instead
  // of flashing a loading state for every row.
  const query = useQuery({ queryKey: detailsItemKey(mode, deviceId, itemId), queryFn: () => loadItem(itemId), placeholderData: keepPreviousData });
  const item = query.data;
  // Opened while in flight, the panel said 'No response' (and offered to mock status 200) after the
  // row had its answer: the live list replaces the row, not this fetched copy.
  const stale = !inFlight && item?.id === itemId && !query.isFetching && isInFlight(item);
  const { refetch } = query;
  useEffect(() => {
    if (stale) void refetch();
  }, [stale, refetch]);
  const queryClient = useQueryClient();
  // The panel keeps the full item: reopened, it must show the mock as it now is.
  const mockChanged = (id: string) => (state: ItemMockState) =>
    queryClient.setQueryData<CapturedItem>(detailsItemKey(mode, deviceId, id), (full) => full && { ...full, ...state });

  useEscapeToClose(onClose);
  const inspectedNetwork = item?.type === 'network' && mode === 'device';
  useEffect(() => {
    if (inspectedNetwork) reportTourEvent('payloadOpened');
  }, [inspectedNetwork]);

  return (
    <section ref={panel} className="details-panel" style={{ height }} aria-label="Details" aria-busy={query.isPlaceholderData || undefined}>
      <ResizeHandle
        edge="top"
        className="details-resize"
        label="Resize details panel"
        step={20}
        size={height}
        min={DETAILS_MIN_HEIGHT}
        max={maxDetailsHeight(areaHeight)}
        onResize={setDragHeight}
        onCommit={(next) => {
          setDragHeight(null);
          setExpanded(false);
          choose({ height: next });
        }}
      />
      <header className="details-header">
        <DetailsTitle item={item} loading={query.isPending} />
        <div className="details-actions">
          {mode === 'device' && mockSection && item?.type === 'network' && <MockingHelp />}
          <IconButton label={expanded ? 'Collapse' : 'Expand'} onClick={() => setExpanded(!expanded)}>
            {expanded ? <Minimize2 size={15} aria-hidden="true" /> : <Maximize2 size={15} aria-hidden="true" />}
          </IconButton>
          <IconButton label="Close details" shortcut="Esc" onClick={onClose}>
            <X size={16} aria-hidden="true" />
          </IconButton>
        </div>
      </header>
      <div className="details-content">
        <MediaViewerProvider>
          {query.isPending && <DetailsLoading />}
          {query.isError && (
            <div className="details-state" role="alert">
              <span>{query.error.message || 'Failed to load request'}</span>
              <Button size="sm" onClick={() => void query.refetch()}>Retry</Button>
            </div>
          )}
          {item && (
            <Suspense fallback={<DetailsLoading />}>
              <ItemDetails
                key={item.id}
                item={item}
                mockSection={mode === 'device' && mockSection && item.type === 'network' ? mockSection(item, mockChanged(item.id)) : undefined}
              />
            </Suspense>
          )}
        </MediaViewerProvider>
      </div>
    </section>
  );
}

function DetailsLoading() {
  return <div className="details-state"><Spinner size={14} /> Loading...</div>;
}

const TYPE_LABELS: Record<CapturedItem['type'], string> = {
  network: 'Network', log: 'Log', event: 'Event', screenshot: 'Screenshot', firebaseAnalytics: 'Analytics',
};

/** The status bar: method and URL of a network item, else the item's type and what it says. */
function DetailsTitle({ item, loading }: { item: CapturedItem | undefined; loading: boolean }) {
  if (!item) return <div className="details-title">{loading ? 'Loading...' : ''}</div>;
  if (item.type === 'network') {
    const { method, url } = item.details.request;
    return (
      <div className="details-title">
        <span className="details-method">{method}</span>
        <span className="details-url" title={url}>{url}</span>
      </div>
    );
  }
  const summary = itemSummary(item);
  const level = item.type === 'log' ? item.details.level ?? item.level : null;
  return (
    <div className="details-title">
      <span className="details-type" data-type={item.type}>{TYPE_LABELS[item.type]}</span>
      {level && <span className="details-level" data-level={level}>{level}</span>}
      <span className="details-summary" title={summary}>{summary.split('\n', 1)[0]}</span>
    </div>
  );
}

/** Spec 002 'Mock tooling help': the Mocking a request helper. */
function MockingHelp() {
  return (
    <Tooltip
      side="bottom"
      content={(
        <span className="details-help">
          <strong>Mocking a request</strong>
          <span>Click Enable Mock ⚡, enter the data (status, headers, body, delay), and the device gets it the next time the app makes this request.</span>
          <span>Wildcards: use * in the path or in a query value, e.g. /api/products/* or ?page=*.</span>
        </span>
      )}
    >
      <button type="button" className="icon-btn" aria-label="Mocking a request">
        <CircleHelp size={15} aria-hidden="true" />
      </button>
    </Tooltip>
  );
}

/** Spec 001 §4: Escape closes details. Not while typing, and not when an overlay already took it (Radix marks it handled). */
function useEscapeToClose(onClose: () => void): void {
  const latest = useRef(onClose);
  useEffect(() => {
    latest.current = onClose;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"]')) return;
      latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
