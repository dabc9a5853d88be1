import { formatTimestamp, type DevicePlatform } from '@spyglass/protocol';
import { Eraser, FileText, Play, RotateCcw, Send, Square } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/api';
import { useProfile } from '../../lib/auth';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { clearEmulatorItems } from './device-emulator.api';
import { EmulatedScreen, screenshotOf, screenStreamOf } from './emulated-screen';
import { useBrowserDevice, type BrowserDeviceFields } from './use-browser-device';
import '../devices/devices.css';
import './device-emulator.css';

export const EMULATOR_INSTALL_ID_KEY = 'spyglass.emulator.installId';
export const EMULATOR_USER_DEFAULTS_KEY = 'spyglass.emulator.userDefaults';
const DEFAULT_FIELDS: BrowserDeviceFields = { name: 'Emulator iPhone', platform: 'ios', systemVersion: '18.1', model: 'Emulated iPhone', type: 'Emulator' };
const PLATFORMS: { value: DevicePlatform; label: string }[] = [{ value: 'ios', label: 'iOS' }, { value: 'android', label: 'Android' }];

/**
 * /device-emulator (spec 002 'Device emulator panel'): a virtual device that runs the real SDK in
 * this page. It appears in Devices like a phone, its logs and requests in its request list, and it
 * answers the dashboard's commands; Take Screenshot sends the picture of its emulated screen.
 */
export function DeviceEmulatorPage() {
  useDocumentTitle('Device Emulator');
  const { apiKey } = useProfile();
  const [fields, setFields] = useState<BrowserDeviceFields>(DEFAULT_FIELDS);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [logCount, setLogCount] = useState(0);
  const screen = useRef<HTMLCanvasElement | null>(null);
  const device = useBrowserDevice({
    apiKey,
    installIdKey: EMULATOR_INSTALL_ID_KEY,
    userDefaultsKey: EMULATOR_USER_DEFAULTS_KEY,
    screenshot: () => screenshotOf(screen.current, `${fields.name} screen`),
    screenStream: () => screenStreamOf(screen.current),
    onOpenSheet: () => setSheetOpen(true),
  });
  const running = device.client !== null;
  const online = device.status === 'connected';
  const screenState = useMemo(() => ({ appName: 'Emulator App', deviceName: fields.name, online, lines: device.activity, sheetOpen }),
    [fields.name, online, device.activity, sheetOpen]);

  const addTestLog = () => {
    const next = logCount + 1;
    setLogCount(next);
    device.addTestLog(`Test log ${next} from ${fields.name}`);
  };

  const clearDeviceLogs = async () => {
    const deviceId = device.client?.deviceId;
    if (!deviceId) return;
    try {
      const { deleted } = await clearEmulatorItems(deviceId);
      device.note(`Cleared ${deleted} captured ${deleted === 1 ? 'item' : 'items'} of this device`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to clear the device’s logs'));
    }
  };

  /** A new device: a new install id, no user defaults, the default fields, nothing logged. */
  const reset = async () => {
    await device.stop();
    window.localStorage.removeItem(EMULATOR_INSTALL_ID_KEY);
    window.localStorage.removeItem(EMULATOR_USER_DEFAULTS_KEY);
    setFields(DEFAULT_FIELDS);
    setSheetOpen(false);
    setLogCount(0);
    device.clearActivity();
  };

  return (
    <div className="page emulator-page">
      <PageHeader title="Device Emulator" />
      <div className="emulator-body">
        <div className="emulator-phone" onClick={() => setSheetOpen(false)}>
          <EmulatedScreen ref={screen} state={screenState} />
        </div>

        <div className="emulator-panels">
          <section className="connect-card emulator-panel" aria-labelledby="emulator-device-title">
            <div className="emulator-panel-head">
              <h2 id="emulator-device-title" className="connect-card-title">Virtual device</h2>
              <span className={`emulator-status${online ? ' is-online' : ''}`} role="status" aria-label="Status">
                <span className="emulator-status-dot" aria-hidden="true" />{online ? 'Online' : 'Offline'}
              </span>
            </div>
            <div className="emulator-fields">
              <label className="field">
                <span className="field-label">Name</span>
                <input className="input" value={fields.name} disabled={running} onChange={(event) => setFields({ ...fields, name: event.target.value })} />
              </label>
              <label className="field">
                <span className="field-label">Platform</span>
                <select className="input" value={fields.platform} disabled={running}
                  onChange={(event) => {
                    const platform = event.target.value as DevicePlatform;
                    setFields({ ...fields, platform, model: platform === 'ios' ? 'Emulated iPhone' : 'Emulated Pixel' });
                  }}>
                  {PLATFORMS.map((platform) => <option key={platform.value} value={platform.value}>{platform.label}</option>)}
                </select>
              </label>
              <label className="field">
                <span className="field-label">Version</span>
                <input className="input" value={fields.systemVersion} disabled={running} onChange={(event) => setFields({ ...fields, systemVersion: event.target.value })} />
              </label>
            </div>
            <div className="emulator-actions">
              {running
                ? <Button icon={<Square size={14} />} onClick={() => void device.stop()}>Stop</Button>
                : <Button variant="primary" icon={<Play size={14} />} disabled={fields.name.trim() === ''} onClick={() => device.start({ ...fields, name: fields.name.trim() })}>Start</Button>}
              <Button icon={<FileText size={14} />} disabled={!online} onClick={addTestLog}>Add Test Log</Button>
              <Button icon={<Eraser size={14} />} onClick={device.clearActivity}>Clear Logs</Button>
            </div>
            <ol className="emulator-activity" aria-label="Emulator log">
              {device.activity.length === 0 && <li className="emulator-activity-empty">No logs yet</li>}
              {device.activity.map((line, index) => (
                <li key={index} className={line.isError ? 'is-error' : undefined}>
                  <time dateTime={line.time}>{formatTimestamp(line.time)}</time>
                  <span>{line.message}</span>
                </li>
              ))}
            </ol>
          </section>

          <section className="connect-card emulator-panel" aria-labelledby="emulator-info-title">
            <h2 id="emulator-info-title" className="connect-card-title">Device</h2>
            <dl className="emulator-info">
              <dt>Name</dt><dd>{fields.name}</dd>
              <dt>Type</dt><dd>{fields.type}</dd>
              <dt>Version</dt><dd>{fields.systemVersion}</dd>
              <dt>Platform</dt><dd>{PLATFORMS.find((p) => p.value === fields.platform)?.label}</dd>
            </dl>
            <div className="emulator-actions">
              <Button icon={<Send size={14} />} disabled={!online} onClick={() => void device.simulateRequest('device-emulator')}>Simulate Request</Button>
              <Button icon={<Eraser size={14} />} disabled={!device.client?.deviceId} onClick={() => void clearDeviceLogs()}>Clear Logs</Button>
              <Button variant="danger" icon={<RotateCcw size={14} />} onClick={() => void reset()}>Reset Device</Button>
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
