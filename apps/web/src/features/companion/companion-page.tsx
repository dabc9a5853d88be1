import { formatTimestamp } from '@spyglass/protocol';
import { FileText, Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { Logo } from '../../ui/logo';
import { EmulatedScreen, screenshotOf, screenStreamOf } from '../device-emulator/emulated-screen';
import { useBrowserDevice } from '../device-emulator/use-browser-device';
import { phoneOf } from './phone';
import './companion.css';

const INSTALL_ID_KEY = 'spyglass.companion.installId';
const NAME_KEY = 'spyglass.companion.name';

const STATUS_TEXT = { off: 'Not connected', connecting: 'Connecting...', connected: 'Connected', disconnected: 'Reconnecting...', failed: 'Not connected', stopped: 'Not connected' } as const;

/**
 * /companion?api-key=…: what the connect screen's QR code opens on a phone (spec 001 Option 1).
 * It connects the phone's browser as a device through the SDK, with no app to install: its name
 * can be changed, Send Test Log records a log, Send Test Request a captured request, and it
 * answers the dashboard's commands like any device.
 */
export function CompanionPage() {
  useDocumentTitle('Spyglass companion');
  const apiKey = useMemo(() => new URLSearchParams(window.location.search).get('api-key'), []);
  const phone = useMemo(() => phoneOf(navigator.userAgent), []);
  const [name, setName] = useState(() => window.localStorage.getItem(NAME_KEY) ?? phone.name);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [logCount, setLogCount] = useState(0);
  const screen = useRef<HTMLCanvasElement | null>(null);
  const device = useBrowserDevice({
    apiKey,
    installIdKey: INSTALL_ID_KEY,
    userDefaultsKey: 'spyglass.companion.userDefaults',
    screenshot: () => screenshotOf(screen.current, `${name} screen`),
    screenStream: () => screenStreamOf(screen.current),
    onOpenSheet: () => setSheetOpen(true),
  });
  const { start } = device;
  const online = device.status === 'connected';

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start({ name: window.localStorage.getItem(NAME_KEY) ?? phone.name, platform: phone.platform, model: phone.model, type: 'Companion', systemVersion: phone.systemVersion });
  }, [start, phone]);

  const rename = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    window.localStorage.setItem(NAME_KEY, trimmed);
    device.client?.updateDevice({ name: trimmed });
    device.note(`Renamed to ${trimmed}`);
  };

  const sendTestLog = () => {
    const next = logCount + 1;
    setLogCount(next);
    device.addTestLog(`Test log ${next} from ${name}`);
  };

  if (!apiKey) {
    return (
      <main className="companion">
        <header className="companion-head"><Logo /></header>
        <p className="companion-missing">Scan the QR code on the Add a device screen of Spyglass to connect this phone.</p>
      </main>
    );
  }

  return (
    <main className="companion">
      <header className="companion-head">
        <Logo />
        <span className={`companion-status${online ? ' is-online' : ''}`} role="status" aria-label="Status">
          <span className="companion-status-dot" aria-hidden="true" />{STATUS_TEXT[device.status]}
        </span>
      </header>
      <section className="companion-card">
        <label className="field">
          <span className="field-label">Device name</span>
          <span className="companion-name-row">
            <input className="input" value={name} maxLength={200} onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => event.key === 'Enter' && rename()} />
            <Button onClick={rename} disabled={!online || name.trim() === ''}>Save</Button>
          </span>
        </label>
        <div className="companion-actions">
          <Button variant="primary" icon={<FileText size={15} />} disabled={!online} onClick={sendTestLog}>Send Test Log</Button>
          <Button icon={<Send size={15} />} disabled={!online} onClick={() => void device.simulateRequest('companion')}>Send Test Request</Button>
        </div>
      </section>
      <ol className="companion-activity" aria-label="Activity">
        {device.activity.length === 0 && <li className="companion-activity-empty">No logs yet</li>}
        {[...device.activity].reverse().map((line, index) => (
          <li key={index} className={line.isError ? 'is-error' : undefined}>
            <time dateTime={line.time}>{formatTimestamp(line.time)}</time>
            <span>{line.message}</span>
          </li>
        ))}
      </ol>
      {/* The phone's own screen is this page: the drawn screen (what Take Screenshot and Capture
          Screen send) is kept out of sight, or the page would show a phone inside the phone. */}
      <div className="companion-frame-source" aria-hidden="true">
        <EmulatedScreen ref={screen} state={{ appName: 'Spyglass', deviceName: name, online, lines: device.activity, sheetOpen }} />
      </div>
      {sheetOpen && (
        <div className="companion-sheet-backdrop" onClick={() => setSheetOpen(false)}>
          <section className="companion-sheet" role="dialog" aria-labelledby="companion-sheet-title" onClick={(event) => event.stopPropagation()}>
            <h2 id="companion-sheet-title" className="companion-sheet-title">Spyglass</h2>
            <p className="companion-sheet-text">Debug window opened from the dashboard</p>
            <Button onClick={() => setSheetOpen(false)}>Close</Button>
          </section>
        </div>
      )}
    </main>
  );
}
