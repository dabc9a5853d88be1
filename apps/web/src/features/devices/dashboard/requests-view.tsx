import { formatTimestamp, itemStatus, itemSummary, statusClass, type Device } from '@spyglass/protocol';
import { Inbox } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { liveConnection } from '../../../lib/live';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { CopyButton } from '../../../ui/copy-button';
import { VirtualRows } from '../../requests/list/virtual-rows';
import type { RequestList } from '../../requests/store/request-list';
import { useRow, useRowCount, useTotalCount } from '../../requests/store/use-item-store';
import { useRequestList } from '../../requests/store/use-request-list';

/**
 * The requests view of the dashboard: the device's items, live, newest first, from the
 * inspector's store. The inspector (table, console, filters, details) takes this area over.
 */
export function RequestsView({ device }: { device: Device }) {
  const list = useRequestList(device.id, liveConnection);
  return (
    <section className="requests-view" aria-label="Requests">
      {list ? <RequestRows list={list} device={device} /> : <RequestsLoading />}
    </section>
  );
}

function RequestsLoading() {
  return <div className="requests-state"><Spinner size={16} /> Loading requests...</div>;
}

function RequestRows({ list, device }: { list: RequestList; device: Device }) {
  const history = useSyncExternalStore(list.history.subscribe, () => list.history.state);
  const count = useRowCount(list.store);
  const total = useTotalCount(list.store);

  if (count === 0) {
    if (history.initial && history.status !== 'error') return <RequestsLoading />;
    if (history.status === 'error') {
      return <div className="requests-state" role="alert">{(history.error as Error | null)?.message ?? 'Failed to load requests'}</div>;
    }
    return <NoRequestsYet device={device} />;
  }
  return (
    <>
      <div className="request-row request-row-head" aria-hidden="true">
        <span>#</span><span className="request-time">Time</span><span>Type</span><span>Details</span><span className="request-status">Status</span>
      </div>
      <VirtualRows
        className="requests-rows"
        ariaLabel="Requests of this device"
        count={count}
        rowKey={(index) => list.store.rowAt(index)?.id ?? index}
        indexOfKey={(key) => list.store.indexOfId(String(key))}
        onRangeChange={(range) => list.history.onRangeChange(range, list.store.count, list.store.isDescending)}
        renderRow={(index) => <RequestRow list={list} index={index} />}
      />
      <footer className="requests-stats">
        <span>Requests: {count} (Total: {total})</span>
        {history.status === 'loading' && <Spinner size={12} />}
      </footer>
    </>
  );
}

function RequestRow({ list, index }: { list: RequestList; index: number }) {
  const item = useRow(list.store, index);
  if (!item) return null;
  const status = itemStatus(item);
  const tone = item.type === 'network' ? statusClass(status) : null;
  return (
    <div className="request-row" data-type={item.type}>
      <span className="request-num">{item.num}</span>
      <span className="request-time">{formatTimestamp(item.createdAt)}</span>
      <span className="request-type">{item.type === 'firebaseAnalytics' ? 'analytics' : item.type}</span>
      <span className="request-summary" title={itemSummary(item)}>{itemSummary(item)}</span>
      <span className={`request-status${tone ? ` is-${tone}` : ''}`}>{item.type === 'network' ? (status ?? '') : (item.level ?? '')}</span>
    </div>
  );
}

/** Spec 001 'Request list screen': a sample log line for the device's platform, to copy into the app. */
const SAMPLE_LOG: Record<Device['platform'], string> = {
  ios: 'Spyglass.log("Hello from my app", level: .info)',
  android: 'Spyglass.log("Hello from my app", level = LogLevel.INFO)',
  web: "spyglass.log('Hello from my app', { level: 'info' });",
  node: "spyglass.log('Hello from my app', { level: 'info' });",
};

function NoRequestsYet({ device }: { device: Device }) {
  const sample = SAMPLE_LOG[device.platform];
  return (
    <EmptyState
      icon={<Inbox size={22} />}
      title="No Requests yet"
      description="Requests, logs and events this device captures appear here as they happen. Send a first log line:"
    >
      <div className="requests-sample">
        <pre><code>{sample}</code></pre>
        <CopyButton text={sample} size="sm" />
      </div>
      <Link to="/devices/new" className="requests-learn-more">Learn More</Link>
    </EmptyState>
  );
}
