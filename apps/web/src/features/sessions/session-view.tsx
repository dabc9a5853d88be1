import type { CapturedItem, SessionDevice } from '@spyglass/protocol';
import { formatTimestamp } from '@spyglass/protocol';
import { Smartphone } from 'lucide-react';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Spinner } from '../../ui/spinner';
import { LoadingRequests } from '../requests/inspector/inspector-states';
import type { InspectorMode } from '../requests/inspector/inspector-mode';
import { RequestsScreen } from '../requests/inspector/requests-screen';
import type { LoadItems } from '../requests/export/stream-export';
import type { SessionItems } from './session-items';
import { useSessionList } from './session-list';
import { TimeRangeSlider } from './time-range-slider';
import type { TimeRange } from './time-range';
import './sessions.css';

export interface SessionViewProps {
  mode: Extract<InspectorMode, 'session' | 'public'>;
  deviceId: string;
  device: SessionDevice;
  createdAt: string;
  /** The session's items (num 1 = oldest) as they stream in. */
  items: SessionItems;
  /** How many items the session holds, for the loading count. */
  total: number;
  loadItem(id: string): Promise<CapturedItem>;
  /** Full items a batch at a time, for export (the owner's page); `loadItem` a few at a time without it. */
  loadItems?: LoadItems;
  /** The name: editable for the owner, plain in public. */
  title: ReactNode;
  /** Share toggle (owner) or the Powered by mark (public). */
  actions?: ReactNode;
}

/**
 * A saved session (spec 001 'Sessions'): its name and device, the time-range slider over the
 * request times (only with at least 2 of them), and the request list screen in session or
 * public mode, showing the items inside the chosen range.
 */
export function SessionView({ mode, deviceId, device, createdAt, items, total, loadItem, loadItems, title, actions }: SessionViewProps) {
  const state = useSyncExternalStore(items.subscribe, () => items.state);
  const bounds = state.bounds;
  const [range, setRange] = useState<TimeRange | null>(null);
  const list = useSessionList(deviceId, items, range, state.count > 0 || state.done);
  // A range spanning everything received is no range: items still to come are not cut off by it.
  const commitRange = (next: TimeRange) => setRange(bounds && next[0] <= bounds[0] && next[1] >= bounds[1] ? null : next);
  const subtitle = [device.name, device.clientAppVersion && `v${device.clientAppVersion}`, `Saved ${formatTimestamp(createdAt, { withDate: true })}`]
    .filter(Boolean).join(' · ');

  return (
    <div className="session-view">
      <header className="session-header">
        <div className="session-heading">
          {title}
          <p className="session-subtitle"><Smartphone size={12} aria-hidden="true" />{subtitle}</p>
        </div>
        {!state.done && state.error === null && (
          <span className="session-streaming" role="status">
            <Spinner size={12} /> Loading session... {state.count.toLocaleString('en-US')} of {Math.max(total, state.count).toLocaleString('en-US')}
          </span>
        )}
        {actions && <div className="session-actions">{actions}</div>}
      </header>
      {/* With the list, not a render before it: the slider measures its thumbs in a layout effect,
          and alone it forced a layout of the page that the list's mount then undid (bench 51). */}
      {bounds && list && <TimeRangeSlider bounds={bounds} value={range ?? bounds} onCommit={commitRange} />}
      <div className="session-inspector">
        {list ? <RequestsScreen list={list} mode={mode} loadItem={loadItem} loadItems={loadItems} /> : <section className="inspector"><LoadingRequests /></section>}
      </div>
    </div>
  );
}
