import type { Device } from '@spyglass/protocol';
import { ScreenShare } from 'lucide-react';
import { useIsMobile } from '../../lib/media';
import { useSettings, useUpdateSettings } from '../../lib/settings';
import { screenCaptureOf } from './screen-captures';

/**
 * The device sidebar's Capture Screen (spec 001 'Device sidebar'): shows the right sidebar, where
 * the screen plays, and starts the capture.
 */
export function CaptureScreenAction({ device }: { device: Device }) {
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  // The right sidebar is not shown on a phone (spec 000 §2.2).
  if (useIsMobile()) return null;
  const capture = () => {
    if (!settings.showRightSidebar) updateSettings({ showRightSidebar: true });
    screenCaptureOf(device.id).start(device.isScreenShareEnabled !== false);
  };
  return (
    <button type="button" className="nav-item nav-item-button" onClick={capture}>
      <ScreenShare size={16} aria-hidden="true" />
      <span>Capture Screen</span>
    </button>
  );
}
