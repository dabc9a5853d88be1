import type { Device } from '@spyglass/protocol';
import { Bug, Camera, List, Radio, SlidersHorizontal, Trash2, Zap } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useMatch, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useAuth } from '../../../lib/auth';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { CaptureScreenAction } from '../../screen-capture/capture-screen-action';
import { modelLabel, osLabel } from '../device-list';
import { PlatformIcon } from '../platform-icon';
import { DEVICE_COMMANDS, runDeviceCommand, useDeleteDevice, useDevice, type DeviceCommand } from './device-dashboard.api';
import { deviceViewPath, resolveDeviceView, sidebarDeviceViews } from './device-views';
import './device-dashboard.css';

// The profile (with its QR code library) loads the first time it is opened, not with the shell.
const DeviceProfileModal = lazy(() => import('../profile/device-profile-modal').then((m) => ({ default: m.DeviceProfileModal })));

const VIEW_ICONS = { requests: List, 'mock-apis': Zap, 'user-defaults': SlidersHorizontal } as const;
const COMMAND_ICONS: Record<DeviceCommand, typeof Bug> = { openDebugWindow: Bug, sendPing: Radio, takeScreenshot: Camera };

/**
 * The device part of the sidebar (spec 001 'Device sidebar'): the device header, which opens the
 * profile, the dashboard's views and the remote actions.
 */
export function DeviceSidebarSection({ deviceId, onNavigate }: { deviceId: string; onNavigate?: () => void }) {
  const { data: device } = useDevice(deviceId);
  const { profile } = useAuth();
  const [profileOpen, setProfileOpen] = useState(false);
  // /devices/{id} and /devices/{id}/requests are the same view.
  const activeView = resolveDeviceView(useMatch('/devices/:deviceId/:view')?.params.view);
  if (!device) return null;
  return (
    <div className="device-sidebar">
      <button type="button" className="device-header" onClick={() => setProfileOpen(true)} aria-label={`${device.name}: open the device profile`}>
        <span className="device-header-icon" aria-hidden="true"><PlatformIcon platform={device.platform} size={16} /></span>
        <span className="device-header-text">
          <span className="device-header-name">{device.name}</span>
          <span className="device-header-meta">{modelLabel(device)} · {osLabel(device)}</span>
        </span>
        <span className={`device-dot${device.online ? ' is-online' : ''}`} role="img" aria-label={device.online ? 'Online' : 'Offline'} />
      </button>
      {profileOpen && (
        <Suspense fallback={null}>
          <DeviceProfileModal device={device} open={profileOpen} onOpenChange={setProfileOpen} />
        </Suspense>
      )}

      <nav className="sidebar-nav device-sidebar-group" aria-label="Device views">
        {sidebarDeviceViews(profile?.featureFlags, device.platform).map((view) => {
          const Icon = VIEW_ICONS[view.id];
          return (
            <Link
              key={view.id}
              to={deviceViewPath(device.id, view.id)}
              className={`nav-item${view.id === activeView ? ' is-active' : ''}`}
              aria-current={view.id === activeView ? 'page' : undefined}
              onClick={onNavigate}
            >
              <Icon size={16} aria-hidden="true" />
              <span>{view.label}</span>
            </Link>
          );
        })}
      </nav>

      <div className="device-sidebar-group" role="group" aria-label="Device actions">
        {(Object.keys(DEVICE_COMMANDS) as DeviceCommand[]).map((command) => (
          <CommandAction key={command} device={device} command={command} />
        ))}
        <CaptureScreenAction device={device} />
        <DeleteDeviceAction device={device} />
      </div>
    </div>
  );
}

function ActionButton({ icon, busy, danger, onClick, children }: { icon: ReactNode; busy: boolean; danger?: boolean; onClick: () => void; children: string }) {
  return (
    <button type="button" className={`nav-item nav-item-button${danger ? ' is-danger' : ''}`} disabled={busy} aria-busy={busy || undefined} onClick={onClick}>
      {busy ? <Spinner size={16} /> : icon}
      <span>{children}</span>
    </button>
  );
}

/** A remote command: the toast tells what the device answered (the server's message when it could not). */
function CommandAction({ device, command }: { device: Device; command: DeviceCommand }) {
  const [busy, setBusy] = useState(false);
  const { label, done } = DEVICE_COMMANDS[command];
  const Icon = COMMAND_ICONS[command];
  const run = async () => {
    setBusy(true);
    try {
      await runDeviceCommand(device.id, command);
      toast.success(done);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return <ActionButton icon={<Icon size={16} aria-hidden="true" />} busy={busy} onClick={() => void run()}>{label}</ActionButton>;
}

/** Spec 001: Delete asks first; on success the list is shown again. */
function DeleteDeviceAction({ device }: { device: Device }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteDevice(device.id);
  const navigate = useNavigate();
  const confirm = () => {
    remove.mutate(undefined, {
      onSuccess: () => void navigate('/devices'),
      onSettled: () => setConfirming(false),
    });
  };
  return (
    <>
      <ActionButton icon={<Trash2 size={16} aria-hidden="true" />} busy={remove.isPending} danger onClick={() => setConfirming(true)}>
        Delete Device
      </ActionButton>
      <Dialog
        open={confirming}
        onOpenChange={(open) => !remove.isPending && setConfirming(open)}
        title="Delete Device"
        description={`Are you sure you want to delete ${device.name}? This action cannot be undone.`}
        actions={(
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={remove.isPending}>Cancel</Button>
            <Button variant="danger" loading={remove.isPending} onClick={confirm}>Delete</Button>
          </>
        )}
      />
    </>
  );
}
