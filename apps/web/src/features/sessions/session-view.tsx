import type { CapturedItem, CompactItem, SessionDevice } from '@spyglass/protocol';
import { formatTimestamp } from '@spyglass/protocol';
import { Smartphone } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { LoadingRequests } from '../requests/inspector/inspector-states';
import type { InspectorMode } from '../requests/inspector/inspector-mode';
import { RequestsScreen } from '../requests/inspector/requests-screen';
import { useSessionList } from './session-list';
import { TimeRangeSlider } from './time-range-slider';
import { itemsInRange, timeBounds, type TimeRange } from './time-range';
import './sessions.css';

export interface SessionViewProps {
  mode: Extract<InspectorMode, 'session' | 'public'>;
  deviceId: string;
  device: SessionDevice;
  createdAt: string;
  /** The session's items, oldest first (num 1 = oldest). */
  items: readonly CompactItem[];
  loadItem(id: string): Promise<CapturedItem>;
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
export function SessionView({ mode, deviceId, device, createdAt, items, loadItem, title, actions }: SessionViewProps) {
  const bounds = useMemo(() => timeBounds(items), [items]);
  const [range, setRange] = useState<TimeRange | null>(null);
  const shown = useMemo(() => itemsInRange(items, range, bounds), [items, range, bounds]);
  const list = useSessionList(deviceId, shown);
  const subtitle = [device.name, device.clientAppVersion && `v${device.clientAppVersion}`, `Saved ${formatTimestamp(createdAt, { withDate: true })}`]
    .filter(Boolean).join(' · ');

  return (
    <div className="session-view">
      <header className="session-header">
        <div className="session-heading">
          {title}
          <p className="session-subtitle"><Smartphone size={12} aria-hidden="true" />{subtitle}</p>
        </div>
        {actions && <div className="session-actions">{actions}</div>}
      </header>
      {bounds && <TimeRangeSlider bounds={bounds} value={range ?? bounds} onCommit={setRange} />}
      <div className="session-inspector">
        {list ? <RequestsScreen list={list} mode={mode} loadItem={loadItem} /> : <section className="inspector"><LoadingRequests /></section>}
      </div>
    </div>
  );
}
