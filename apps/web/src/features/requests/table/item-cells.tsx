import {
  formatDuration, formatSize, formatTimestamp, itemCategory, itemStatus, itemSubsystem, itemSummary, statusClass,
  type CompactItem, type ItemType,
} from '@spyglass/protocol';
import { Zap } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TableColumnId } from './columns';
import { useItemFlash } from './item-flashes';
import { isInFlight, WaitingTimer } from './waiting-timer';

export const TYPE_LABELS: Readonly<Record<ItemType, string>> = {
  network: 'network',
  log: 'log',
  event: 'event',
  screenshot: 'screenshot',
  firebaseAnalytics: 'analytics',
};

/**
 * Lucide's Globe, ScrollText, Activity, Image and ChartNoAxesColumn, each drawn as one path (their
 * circles and rounded rectangles as arcs). New rows arrive as fast as items do: lucide's icon is an
 * SVG of up to five elements with ten attributes, this one two elements (bench 41), and a shared
 * image through a CSS mask cost more to paint than it saved.
 */
const TYPE_ICON_PATHS: Readonly<Record<ItemType, string>> = {
  network: 'M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0zM12 2a14.5 14.5 0 0 0 0 20 14.5 14.5 0 0 0 0-20M2 12h20',
  log: 'M15 12h-5M15 8h-5M19 17V5a2 2 0 0 0-2-2H4M8 21h12a2 2 0 0 0 2-2v-1a1 1 0 0 0-1-1H11a1 1 0 0 0-1 1v1a2 2 0 1 1-4 0V5a2 2 0 1 0-4 0v2a1 1 0 0 0 1 1h3',
  event: 'M22 12h-2.48a2 2 0 0 0-1.93 1.46l-2.35 8.36a.25.25 0 0 1-.48 0L9.24 2.18a.25.25 0 0 0-.48 0l-2.35 8.36A2 2 0 0 1 4.49 12H2',
  screenshot: 'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM7 9a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM21 15l-3.086-3.086a2 2 0 0 0-2.828 0L6 21',
  firebaseAnalytics: 'M5 21v-6M12 21V3M19 21V9',
};

/** Log levels by tone; unknown levels stay neutral. */
const LEVEL_TONES: Readonly<Record<string, string>> = {
  fault: 'error',
  critical: 'error',
  error: 'error',
  warning: 'warning',
  warn: 'warning',
  notice: 'info',
  info: 'info',
  debug: 'faint',
  verbose: 'faint',
  trace: 'faint',
};

export function levelTone(level: string | null | undefined): string | null {
  return level ? LEVEL_TONES[level.toLowerCase()] ?? null : null;
}

const isMocked = (item: CompactItem) => item.isMocked || (item.type === 'network' && item.details.mockedBy !== undefined);

/**
 * The content of one cell. Captured content is rendered as text only. Plain values are returned
 * as text for the cell itself to lay out (`req-td-<column>` styles them): rows are re-created as
 * fast as items arrive, so every element less per cell counts. A function, not a component: no
 * hooks here, and a component per cell was five more fibers per new row.
 */
export function itemCell(item: CompactItem, column: TableColumnId): ReactNode {
  switch (column) {
    case 'id':
      return item.num;
    case 'details':
      return <DetailsCell item={item} />;
    case 'createdAt':
      return formatTimestamp(item.createdAt);
    case 'type':
      return (
        <span className={`req-type req-type-${item.type}`}>
          <svg className="req-type-icon" viewBox="0 0 24 24" aria-hidden="true"><path d={TYPE_ICON_PATHS[item.type]} /></svg>
          {TYPE_LABELS[item.type]}
        </span>
      );
    case 'level': {
      const tone = levelTone(item.level);
      return item.level ? <span className={`req-level${tone ? ` is-${tone}` : ''}`}>{item.level}</span> : null;
    }
    case 'category':
      return itemCategory(item) ?? '';
    case 'subsystem':
      return itemSubsystem(item) ?? '';
    case 'status': {
      const status = itemStatus(item);
      return status === null ? null : <span className={`req-status is-${statusClass(status) ?? 'none'}`}>{status}</span>;
    }
    case 'duration':
      return isInFlight(item) ? <WaitingTimer item={item} /> : formatDuration(item.duration);
    case 'size':
      return formatSize(item.size);
  }
}

/**
 * The mocked mark of a network row; it flashes for 0.5 s when a new request was answered by this
 * item's mock (spec 001 §4).
 */
function MockedIcon({ itemId }: { itemId: string }) {
  const flash = useItemFlash(itemId);
  return (
    <span key={flash} className={`req-mocked intercepted-icon${flash > 0 ? ' is-flashing' : ''}`} data-flashing={flash > 0 || undefined}>
      <Zap size={12} aria-label="Mocked" />
    </span>
  );
}

/** The request line with its status for network items, the message or the name for the rest. */
function DetailsCell({ item }: { item: CompactItem }) {
  const mocked = isMocked(item);
  if (item.type === 'network') {
    const status = itemStatus(item);
    const tone = statusClass(status);
    const { method, url } = item.details.request;
    return (
      <>
        <span className={`req-status-pill is-${tone ?? 'pending'}`}>{status ?? (isInFlight(item) ? <WaitingTimer item={item} fallback="···" /> : '···')}</span>
        <span className="req-method">{method}</span>
        <span className="req-cell-text" title={`${method} ${url}`}>{url}</span>
        {mocked && <MockedIcon itemId={item.id} />}
      </>
    );
  }
  const summary = itemSummary(item);
  const tone = item.type === 'log' ? levelTone(item.level) : null;
  return (
    <>
      <span className={`req-cell-text${tone === 'error' || tone === 'warning' ? ` is-${tone}` : ''}`} title={summary.length > 300 ? `${summary.slice(0, 300)}…` : summary}>
        {summary}
      </span>
      {mocked && <Zap className="req-mocked" size={12} aria-label="Mocked" />}
    </>
  );
}
