import { Package, TriangleAlert } from 'lucide-react';
import { formatTimestamp, isSdkOutdated, MIN_SDK_VERSION, SAMPLE_DEVICE_ID, sdkTooltip, type Device } from '@spyglass/protocol';
import { Tooltip } from '../../ui/tooltip';
import type { DeviceColumnId } from './device-columns';
import { modelLabel, osLabel, platformName, relativeTime } from './device-list';
import { useLatestSdkVersion } from './devices.api';
import { PlatformIcon } from './platform-icon';

function StatusDot({ online }: { online: boolean }) {
  const label = online ? 'Online' : 'Offline';
  return (
    <Tooltip content={label}>
      <span className={`status-dot${online ? ' is-online' : ''}`} role="img" aria-label={label} />
    </Tooltip>
  );
}

/** The app icon the device sent (a data URL or bare base64 PNG), or a generic package. */
function AppIcon({ icon }: { icon: string | undefined }) {
  if (!icon) return <Package size={14} aria-hidden="true" className="device-app-icon-fallback" />;
  const src = icon.startsWith('data:image/') ? icon : `data:image/png;base64,${icon}`;
  return <img className="device-app-icon" src={src} alt="" width={16} height={16} />;
}

/** Spec 000 §5: only iOS and Android SDKs have a minimum; an outdated one shows the latest version. */
function SdkCell({ device }: { device: Device }) {
  const platform = device.platform === 'ios' || device.platform === 'android' ? device.platform : null;
  const outdated = platform !== null && isSdkOutdated(platform, device.sdkVersion);
  const latest = useLatestSdkVersion(platform ?? 'ios', outdated);
  if (!device.sdkVersion) return <span className="cell-muted">—</span>;
  if (platform === null) return <span className="cell-text">{device.sdkVersion}</span>;
  if (!outdated) {
    return (
      <Tooltip content={sdkTooltip(false, '')}>
        <span className="cell-text">{device.sdkVersion}</span>
      </Tooltip>
    );
  }
  const version = latest.data ?? MIN_SDK_VERSION[platform];
  return (
    <Tooltip content={sdkTooltip(true, version)}>
      <span className="sdk-outdated" aria-label={`${device.sdkVersion}. ${sdkTooltip(true, version)}`}>
        <TriangleAlert size={13} aria-hidden="true" />
        <span className="cell-text">{version}</span>
      </span>
    </Tooltip>
  );
}

export function DeviceCell({ device, column, now }: { device: Device; column: DeviceColumnId; now: number }) {
  switch (column) {
    case 'status':
      return <StatusDot online={device.online} />;
    case 'model':
      return (
        <span className="cell-with-icon" title={device.model ? `${platformName(device)} · ${device.model}` : platformName(device)}>
          <PlatformIcon platform={device.platform} />
          <span className="cell-text">{modelLabel(device)}</span>
          {device.id === SAMPLE_DEVICE_ID && <span className="device-sample-badge" title="Sample data: removed when your first device connects">Sample</span>}
        </span>
      );
    case 'name':
      return <span className="cell-text cell-strong" title={device.name}>{device.name}</span>;
    case 'bundleId':
      return device.bundleId ? (
        <span className="cell-with-icon" title={device.clientAppDisplayName ? `${device.clientAppDisplayName} · ${device.bundleId}` : device.bundleId}>
          <AppIcon icon={device.icon} />
          <span className="cell-text cell-mono">{device.bundleId}</span>
        </span>
      ) : <span className="cell-muted">—</span>;
    case 'group':
      return device.group ? <span className="device-group" title={device.group}>{device.group}</span> : <span className="cell-muted">—</span>;
    case 'systemVersion':
      return <span className="cell-text" title={osLabel(device)}>{osLabel(device)}</span>;
    case 'id':
      return <span className="cell-text cell-mono cell-muted" title={device.id}>{device.id}</span>;
    case 'lastSeen':
      return <time className="cell-text" dateTime={device.lastSeen} title={formatTimestamp(device.lastSeen, { withDate: true })}>{relativeTime(device.lastSeen, now)}</time>;
    case 'sdkVersion':
      return <SdkCell device={device} />;
  }
}
