import { Camera, Circle, Download, Minus, Plus, Square, Trash2, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  captureScreenshot, convertImage, downloadBlob, startRecording, type ActiveRecording, type StudioEntry,
} from './studio-capture';
import {
  clickZoom, DEMO_FLAG_KEY, keyboardZoom, parseStudioSettings, screenshotName, STUDIO_GRADIENT, STUDIO_SETTINGS_KEY,
  type StudioSettings,
} from './studio-settings';
import { StudioSettingsForm } from './studio-settings-form';
import './demo-studio.css';

function loadSettings(): StudioSettings {
  try {
    return parseStudioSettings(localStorage.getItem(STUDIO_SETTINGS_KEY));
  } catch {
    return parseStudioSettings(null);
  }
}

/**
 * The demo recording studio wrapper (spec 002 §2, §3, §4): a control panel, the captured container
 * holding the app, the recordings list and the live size readout, and the preview modal. It makes
 * no backend calls.
 */
export function DemoStudio({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState(loadSettings);
  const [entries, setEntries] = useState<StudioEntry[]>([]);
  const [recording, setRecording] = useState<ActiveRecording | null>(null);
  const [recordedBytes, setRecordedBytes] = useState(0);
  const [preview, setPreview] = useState<StudioEntry | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const container = useRef<HTMLDivElement>(null);

  const update = useCallback((patch: Partial<StudioSettings>) => setSettings((s) => ({ ...s, ...patch })), []);
  useEffect(() => {
    localStorage.setItem(STUDIO_SETTINGS_KEY, JSON.stringify(settings));
  }, [settings]);

  // The live width × height of the captured container.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const box = entry!.borderBoxSize[0]!;
      setSize({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const zoom = keyboardZoom(settings.zoom, event);
      if (zoom === null) return;
      event.preventDefault();
      update({ zoom });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [settings.zoom, update]);

  function onContainerClick(event: React.MouseEvent) {
    const box = container.current?.getBoundingClientRect();
    if (!box) return;
    const zoom = clickZoom(settings.zoom, settings.autozoomEnabled, { x: event.clientX, y: event.clientY }, { x: box.left + box.width / 2, y: box.top + box.height / 2 });
    if (zoom !== null) update({ zoom });
  }

  async function start() {
    try {
      setRecordedBytes(0);
      setRecording(await startRecording(container.current, settings, setRecordedBytes));
    } catch (error) {
      alert(error instanceof Error ? error.message : String(error));
    }
  }

  async function stop() {
    if (!recording) return;
    const entry = await recording.stop();
    setRecording(null);
    setEntries((list) => [entry, ...list]);
  }

  async function screenshot() {
    try {
      const entry = await captureScreenshot(container.current!, settings.screenshotFormat, screenshotName(new Date(), settings.screenshotFormat));
      setEntries((list) => [...list, entry]);
    } catch {
      alert('Failed to take screenshot. Please try again.');
    }
  }

  async function download(entry: StudioEntry, format?: 'png' | 'webp') {
    try {
      if (!format) return downloadBlob(entry.blob, entry.name);
      downloadBlob(await convertImage(entry, format), entry.name.replace(/\.(png|webp)$/, `.${format}`));
    } catch {
      alert('Download failed. Please try again.');
    }
  }

  function remove(entry: StudioEntry) {
    URL.revokeObjectURL(entry.url);
    setEntries((list) => list.filter((e) => e.id !== entry.id));
    if (preview?.id === entry.id) setPreview(null);
  }

  function close() {
    localStorage.removeItem(DEMO_FLAG_KEY);
    window.location.reload();
  }

  const zoom = settings.zoom;
  const background = settings.backgroundType === 'gradient' ? STUDIO_GRADIENT : settings.backgroundColor;

  return (
    <div className="studio">
      <section className="studio-panel" aria-label="Demo studio">
        <div className="studio-controls">
          {recording
            ? <button type="button" className="studio-btn is-danger" onClick={() => void stop()}><Square size={14} aria-hidden="true" />Stop</button>
            : <button type="button" className="studio-btn is-primary" onClick={() => void start()}><Circle size={14} aria-hidden="true" />Start</button>}
          <button type="button" className="studio-btn" onClick={() => void screenshot()}><Camera size={14} aria-hidden="true" />Screenshot</button>
          <span className="studio-zoom" role="group" aria-label="Zoom">
            <button type="button" className="studio-icon-btn" aria-label="Zoom out" onClick={() => update({ zoom: keyboardZoom(zoom, { key: '-', ctrlKey: true })! })}><Minus size={14} /></button>
            <output className="studio-zoom-value" aria-label="Zoom level">{Math.round(zoom * 100)}%</output>
            <button type="button" className="studio-icon-btn" aria-label="Zoom in" onClick={() => update({ zoom: keyboardZoom(zoom, { key: '+', ctrlKey: true })! })}><Plus size={14} /></button>
          </span>
          <button
            type="button"
            className={`studio-btn${settings.autozoomEnabled ? ' is-on' : ''}`}
            aria-pressed={settings.autozoomEnabled}
            onClick={() => update({ autozoomEnabled: !settings.autozoomEnabled })}
          >
            Autozoom: {settings.autozoomEnabled ? 'Enabled' : 'Disabled'}
          </button>
          {recording && <span className="studio-recording" role="status"><span className="studio-rec-dot" />Recording · {Math.ceil(recordedBytes / 1000)} KB</span>}
          <button type="button" className="studio-btn studio-close" onClick={close}><X size={14} aria-hidden="true" />Close</button>
        </div>
        <div className="studio-tabs" role="tablist" aria-label="Studio">
          {(['settings', 'frames'] as const).map((tab) => (
            <button key={tab} type="button" role="tab" aria-selected={settings.activeTab === tab} className="studio-tab" onClick={() => update({ activeTab: tab })}>
              {tab === 'settings' ? 'Settings' : 'Frames'}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="studio-tabpanel">
          {settings.activeTab === 'settings'
            ? <StudioSettingsForm settings={settings} onChange={update} />
            : <p className="studio-muted">Frame management is coming soon.</p>}
        </div>
      </section>

      <div className="studio-stage">
        <div
          ref={container}
          className="studio-container"
          data-testid="studio-container"
          style={{ width: settings.containerWidth, height: settings.containerHeight, padding: settings.containerPadding, background }}
          onClickCapture={onContainerClick}
        >
          <div className="studio-app-frame" style={{ padding: settings.appPadding, borderRadius: settings.appBorderRadius, background: settings.appWrapperBackground }}>
            <div className="studio-app-clip" style={{ borderRadius: Math.max(0, settings.appBorderRadius - 2) }}>
              <div className="studio-app" style={{ width: `${100 / zoom}%`, height: `${100 / zoom}%`, transform: `scale(${zoom})` }}>
                {children}
              </div>
            </div>
          </div>
        </div>
      </div>

      <div className="studio-below">
        <output className="studio-size" aria-label="Container size">{size.width} × {size.height}</output>
        <section className="studio-recordings" aria-label="Recordings">
          <h2>Recordings ({entries.length})</h2>
          <ul>
            {entries.map((entry) => (
              <li key={entry.id} className="studio-entry">
                <button type="button" className="studio-thumb" aria-label={`Preview ${entry.name}`} onClick={() => setPreview(entry)}>
                  {entry.kind === 'video' ? <video src={entry.url} muted /> : <img src={entry.url} alt="" />}
                </button>
                <span className="studio-entry-name">{entry.name}</span>
                {entry.kind === 'screenshot' ? (
                  <>
                    <button type="button" className="studio-btn" onClick={() => void download(entry, 'png')}><Download size={13} aria-hidden="true" />PNG</button>
                    <button type="button" className="studio-btn" onClick={() => void download(entry, 'webp')}><Download size={13} aria-hidden="true" />WebP</button>
                  </>
                ) : (
                  <button type="button" className="studio-btn" onClick={() => void download(entry)}><Download size={13} aria-hidden="true" />Download</button>
                )}
                <button type="button" className="studio-icon-btn" aria-label={`Delete ${entry.name}`} onClick={() => remove(entry)}><Trash2 size={14} /></button>
              </li>
            ))}
          </ul>
        </section>
      </div>

      {preview && (
        <div className="studio-modal-backdrop" role="presentation" onClick={(e) => e.target === e.currentTarget && setPreview(null)}>
          <div className="studio-modal" role="dialog" aria-label={preview.name}>
            <button type="button" className="studio-icon-btn studio-modal-close" aria-label="Close preview" onClick={() => setPreview(null)}><X size={16} /></button>
            {preview.kind === 'video'
              ? <video src={preview.url} controls autoPlay>Your browser does not support the video tag.</video>
              : <img src={preview.url} alt={preview.name} />}
          </div>
        </div>
      )}
    </div>
  );
}
