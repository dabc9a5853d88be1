import { formatDuration, formatSize, formatTimestamp, itemStatus, statusClass, statusText, type CompactItem } from '@spyglass/protocol';
import { memo, useSyncExternalStore, type MouseEvent } from 'react';
import type { ListStore } from '../store/list-store';

export interface ConsoleLineProps {
  store: ListStore;
  item: CompactItem;
  onClick: (id: string, event: MouseEvent) => void;
}

/** The badge of a line: the level for logs (coloured by severity), the kind of item otherwise. */
function badge(item: CompactItem): { text: string; tone: string } {
  switch (item.type) {
    case 'log': {
      const level = item.level ?? item.details.level ?? 'log';
      return { text: level, tone: `level-${levelTone(level)}` };
    }
    case 'network': return { text: item.details.request.method, tone: 'network' };
    case 'event': return { text: 'event', tone: 'event' };
    case 'screenshot': return { text: 'screenshot', tone: 'screenshot' };
    case 'firebaseAnalytics': return { text: 'analytics', tone: 'analytics' };
  }
}

function levelTone(level: string): 'error' | 'warning' | 'info' | 'debug' {
  switch (level.toLowerCase()) {
    case 'error': case 'critical': case 'fault': return 'error';
    case 'warning': case 'warn': return 'warning';
    case 'verbose': case 'debug': case 'trace': return 'debug';
    default: return 'info';
  }
}

/** The message of a line: the URL, the log message, or the name (with its category). */
function message(item: CompactItem): string {
  switch (item.type) {
    case 'network': return item.details.request.url;
    case 'log': return item.details.message;
    case 'event':
    case 'firebaseAnalytics':
      return item.details.category ? `${item.details.name} (${item.details.category})` : item.details.name;
    case 'screenshot': return item.details.name;
  }
}

/**
 * One line of the console: time (24 h with milliseconds, spec 001 §9), a badge in the colour of
 * the item's type or level, the message, and for network items the status (colour class of
 * §5), duration and size. Captured text is rendered as text, never as markup.
 */
export const ConsoleLine = memo(function ConsoleLine({ store, item, onClick }: ConsoleLineProps) {
  const selected = useSyncExternalStore(store.subscribe, () => store.isSelected(item.id));
  const { text, tone } = badge(item);
  const status = item.type === 'network' ? itemStatus(item) : null;
  const statusTone = statusClass(status);
  const line = message(item);
  return (
    <div
      className={selected ? 'console-line is-selected' : 'console-line'}
      data-type={item.type}
      data-id={item.id}
      role="option"
      aria-selected={selected}
      onClick={(event) => onClick(item.id, event)}
    >
      <span className="console-time">{formatTimestamp(item.createdAt)}</span>
      <span className={`console-badge is-${tone}`}>{text}</span>
      <span className="console-message" title={line}>
        {item.isMocked && <span className="console-mocked">mocked</span>}
        {line}
      </span>
      {item.type === 'network' && (
        <span className="console-network">
          {status !== null && <span className={`console-status${statusTone ? ` is-${statusTone}` : ''}`}>{status} {statusText(status)}</span>}
          {item.duration !== null && <span className="console-meta">{formatDuration(item.duration)}</span>}
          {item.details.response?.bodySize !== undefined && <span className="console-meta">{formatSize(item.details.response.bodySize)}</span>}
        </span>
      )}
    </div>
  );
});
