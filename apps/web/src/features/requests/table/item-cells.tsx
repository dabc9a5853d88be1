import {
  formatDuration, formatSize, formatTimestamp, itemCategory, itemStatus, itemSubsystem, itemSummary, statusClass,
  type CompactItem, type ItemType,
} from '@spyglass/protocol';
import { Activity, ChartNoAxesColumn, Globe, Image, ScrollText, Zap, type LucideIcon } from 'lucide-react';
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

const TYPE_ICONS: Readonly<Record<ItemType, LucideIcon>> = {
  network: Globe,
  log: ScrollText,
  event: Activity,
  screenshot: Image,
  firebaseAnalytics: ChartNoAxesColumn,
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
 * fast as items arrive, so every element less per cell counts.
 */
export function ItemCell({ item, column }: { item: CompactItem; column: TableColumnId }) {
  switch (column) {
    case 'id':
      return item.num;
    case 'details':
      return <DetailsCell item={item} />;
    case 'createdAt':
      return formatTimestamp(item.createdAt);
    case 'type': {
      const Icon = TYPE_ICONS[item.type];
      return (
        <span className={`req-type req-type-${item.type}`}>
          <Icon size={12} aria-hidden="true" />
          {TYPE_LABELS[item.type]}
        </span>
      );
    }
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
