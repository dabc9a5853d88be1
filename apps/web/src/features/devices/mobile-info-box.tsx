import { Monitor } from 'lucide-react';
import { useIsMobile } from '../../lib/media';

/** Spec 001: on a narrow portrait screen the device list says the dashboard is made for a desktop. */
export function MobileInfoBox() {
  const isMobile = useIsMobile();
  if (!isMobile) return null;
  return (
    <aside className="mobile-info" role="note">
      <Monitor size={18} aria-hidden="true" className="mobile-info-icon" />
      <div>
        <strong>Best on a larger screen</strong>
        <p>Spyglass shows requests, details and the screen of your device side by side. Open it on a desktop browser for the full inspector.</p>
      </div>
    </aside>
  );
}
