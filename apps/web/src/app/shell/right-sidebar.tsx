import { MonitorSmartphone, X } from 'lucide-react';
import { useMatch } from 'react-router';
import { ScreenCapturePanel } from '../../features/screen-capture/screen-capture-panel';
import { IconButton } from '../../ui/button';

/** The right sidebar holds remote screen capture (spec 000 §2.2), which works on an open device. */
export function RightSidebar({ onClose }: { onClose(): void }) {
  const segment = useMatch('/devices/:deviceId/*')?.params.deviceId;
  // /devices/new is the Add a device screen, not a device (the router ranks it above the id).
  const deviceId = segment === 'new' ? undefined : segment;
  return (
    <aside className="right-sidebar" aria-label="Screen capture">
      <div className="panel-header">
        <h2 className="panel-title">Screen Capture</h2>
        <IconButton label="Close right sidebar" onClick={onClose}><X size={15} aria-hidden="true" /></IconButton>
      </div>
      {deviceId ? (
        <ScreenCapturePanel key={deviceId} deviceId={deviceId} />
      ) : (
        <div className="panel-empty">
          <MonitorSmartphone size={22} aria-hidden="true" />
          <p>Open a device to watch its screen here.</p>
        </div>
      )}
    </aside>
  );
}
