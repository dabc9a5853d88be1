import type { Device, FeatureToggles } from '@spyglass/protocol';
import { QRCodeSVG } from 'qrcode.react';
import { toast } from 'sonner';
import { Dialog } from '../../../ui/dialog';
import { Switch } from '../../../ui/switch';
import { useSaveBreakpoint, useSaveFeatureToggles, withToggle } from '../dashboard/device-dashboard.api';
import { PlatformIcon } from '../platform-icon';
import { iconSource, profileSections } from './device-profile-sections';
import './device-profile.css';

/** Spec 001 §9: the device profile's QR code. */
const QR_SIZE = 140;

const TOGGLES: ReadonlyArray<{ key: keyof FeatureToggles; label: string; description: string; iosOnly?: boolean }> = [
  { key: 'logs', label: 'Logs', description: 'Log lines sent by the app' },
  { key: 'network', label: 'Network', description: 'Requests and responses' },
  { key: 'prints', label: 'Prints', description: 'Output of print()', iosOnly: true },
  { key: 'events', label: 'Events', description: 'Events and analytics events' },
];

/** The dashboard's address of this device, for opening it on another screen. */
const deviceUrl = (device: Device) => `${window.location.origin}/devices/${encodeURIComponent(device.id)}`;

/**
 * The device profile (spec 001 §2, opened from the device header): QR code, feature toggles that
 * save at once, and every field the device reports, in sections.
 */
export function DeviceProfileModal({ device, open, onOpenChange }: { device: Device; open: boolean; onOpenChange: (open: boolean) => void }) {
  const icon = iconSource(device.icon);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Device Profile" size="lg">
      <div className="profile">
        <div className="profile-summary">
          <div className="profile-identity">
            <span className="profile-icon" aria-hidden="true">
              {icon ? <img src={icon} alt="" width={40} height={40} /> : <PlatformIcon platform={device.platform} size={22} />}
            </span>
            <div className="profile-identity-text">
              <div className="profile-name">{device.name}</div>
              <div className="profile-subtitle">
                <span className={`profile-status${device.online ? ' is-online' : ''}`}>{device.online ? 'Online' : 'Offline'}</span>
                {device.clientAppDisplayName && <span>{device.clientAppDisplayName}{device.clientAppVersion ? ` ${device.clientAppVersion}` : ''}</span>}
              </div>
            </div>
          </div>
          <FeatureToggleList device={device} />
          <figure className="profile-qr">
            <QRCodeSVG value={deviceUrl(device)} size={QR_SIZE} level="M" marginSize={2} title="QR code of this device's dashboard" />
            <figcaption>Scan to open this device</figcaption>
          </figure>
        </div>
        <div className="profile-sections">
          {profileSections(device).map((section) => (
            <section key={section.title} className="profile-section" aria-label={section.title}>
              <h3 className="profile-section-title">{section.title}</h3>
              <dl className="profile-fields">
                {section.fields.map((field) => (
                  <div key={field.key} className="profile-field">
                    <dt>{field.label}</dt>
                    <dd title={field.value}>{field.value}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </Dialog>
  );
}

/** The breakpoint setting: a switch that tells the device at once (pausing requests comes later). */
function BreakpointToggle({ device }: { device: Device }) {
  const save = useSaveBreakpoint(device.id);
  const checked = save.isPending ? save.variables : device.breakpointEnabled;
  return (
    <div className="profile-toggle">
      <div className="profile-toggle-text">
        <span className="profile-toggle-label">Breakpoints</span>
        <span className="profile-toggle-description">Requests the device may pause</span>
      </div>
      <Switch label="Breakpoints" checked={checked} disabled={save.isPending} onChange={(event) => save.mutate(event.currentTarget.checked, {
        onSuccess: () => toast.success('Device updated'),
        onError: () => toast.error('Failed to update device'),
      })} />
    </div>
  );
}

/** Spec 001 §4: each switch flips at once and saves the whole device. */
function FeatureToggleList({ device }: { device: Device }) {
  const save = useSaveFeatureToggles(device.id);
  const toggle = (key: keyof FeatureToggles, on: boolean) => {
    save.mutate(withToggle(device, key, on), {
      onSuccess: () => toast.success('Device updated'),
      onError: () => toast.error('Failed to update device'),
    });
  };
  return (
    <section className="profile-toggles" aria-label="Features">
      <h3 className="profile-section-title">Features</h3>
      {TOGGLES.filter((t) => !t.iosOnly || device.platform === 'ios').map((t) => (
        <div key={t.key} className="profile-toggle">
          <div className="profile-toggle-text">
            <span className="profile-toggle-label">{t.label}</span>
            <span className="profile-toggle-description">{t.description}</span>
          </div>
          <Switch label={t.label} checked={device.featureToggles[t.key]} onChange={(event) => toggle(t.key, event.currentTarget.checked)} />
        </div>
      ))}
      <BreakpointToggle device={device} />
    </section>
  );
}
