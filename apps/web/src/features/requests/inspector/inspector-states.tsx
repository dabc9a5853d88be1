import type { Device } from '@spyglass/protocol';
import { Inbox, SearchX, Smartphone } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { CopyButton } from '../../../ui/copy-button';

/** Spec 001 'Request list screen': a sample log line for the device's platform, to copy into the app. */
export const SAMPLE_LOG: Readonly<Record<Device['platform'], string>> = {
  ios: 'Spyglass.log("Hello from my app", level: .info)',
  android: 'Spyglass.log("Hello from my app", level = LogLevel.INFO)',
  web: "spyglass.log('Hello from my app', { level: 'info' });",
  node: "spyglass.log('Hello from my app', { level: 'info' });",
};

export function NoDevice() {
  return <EmptyState icon={<Smartphone size={22} />} title="Select a device to view requests" />;
}

export function LoadingRequests() {
  return <div className="inspector-state"><Spinner size={16} /> Loading requests...</div>;
}

export function LoadFailed({ message }: { message: string }) {
  return <div className="inspector-state is-error" role="alert">{message}</div>;
}

/** An empty list. With a device, how to send it a first item. */
export function NoRequestsYet({ device }: { device?: Device }) {
  const sample = device ? SAMPLE_LOG[device.platform] : null;
  return (
    <EmptyState
      icon={<Inbox size={22} />}
      title="No Requests yet"
      description={sample ? 'Requests, logs and events this device captures appear here as they happen. Send a first log line:' : undefined}
    >
      {sample && (
        <>
          <div className="inspector-sample">
            <pre><code>{sample}</code></pre>
            <CopyButton text={sample} size="sm" />
          </div>
          <Link to="/docs/sdk" className="inspector-learn-more">Learn More</Link>
        </>
      )}
    </EmptyState>
  );
}

export function NoSearchResults({ onClear }: { onClear(): void }) {
  return (
    <EmptyState
      icon={<SearchX size={22} />}
      title="No Search Results"
      description="No request matches the filter and search."
      actions={<Button onClick={onClear}>Clear Search</Button>}
    />
  );
}
