import { MIN_SDK_VERSION } from '@spyglass/protocol';
import { X } from 'lucide-react';
import { Link } from 'react-router';
import { IconButton } from '../../ui/button';

/** The help panel of the device list heading. */
export function DevicesHelp({ onClose }: { onClose(): void }) {
  return (
    <section className="devices-help" aria-labelledby="devices-help-title">
      <div className="devices-help-header">
        <h2 id="devices-help-title">About devices</h2>
        <IconButton label="Close help" onClick={onClose}><X size={15} aria-hidden="true" /></IconButton>
      </div>
      <ul>
        <li>
          A device appears here as soon as an app running the Spyglass SDK starts with your API key
          (<Link to="/devices/new">Add new device</Link> shows the key and the code). Its status changes live.
        </li>
        <li>Click a device to see its requests, logs, events and screenshots. <kbd>↑</kbd> <kbd>↓</kbd> select, <kbd>Enter</kbd> opens, <kbd>Ctrl/⌘</kbd>+<kbd>A</kbd> selects all, <kbd>Ctrl/⌘</kbd>+click adds a device to the selection.</li>
        <li>Right-click the table header to show or hide columns; drag the edge of a column to resize it. Your choice is kept with your account.</li>
        <li>A warning in the SDK column means the device runs an SDK older than the minimum (iOS {MIN_SDK_VERSION.ios}, Android {MIN_SDK_VERSION.android}): hover it for the version to update to.</li>
      </ul>
    </section>
  );
}
