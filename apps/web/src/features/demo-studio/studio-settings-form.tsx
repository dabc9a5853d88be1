import { useMemo } from 'react';
import {
  clampPadding, clampRadius, clampSize, CONTAINER_PRESETS, SCREENSHOT_FORMATS, STUDIO_FPS, STUDIO_RESOLUTIONS, supportedVideoFormats,
  type StudioSettings,
} from './studio-settings';

/** A number input that applies its range when it loses focus or on Enter (spec 002 §5). */
function NumberSetting({ label, value, min, max, clamp, onChange }: {
  label: string; value: number; min: number; max: number; clamp(v: unknown): number; onChange(v: number): void;
}) {
  const commit = (input: HTMLInputElement) => {
    const next = clamp(input.value);
    input.value = String(next);
    if (next !== value) onChange(next);
  };
  return (
    <label className="studio-field">
      <span>{label}</span>
      <input
        key={value}
        className="studio-input"
        type="number"
        min={min}
        max={max}
        defaultValue={value}
        onBlur={(e) => commit(e.currentTarget)}
        onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget)}
      />
    </label>
  );
}

function Choice<T extends string | number>({ label, value, options, onChange }: {
  label: string; value: T; options: ReadonlyArray<{ value: T; label: string }>; onChange(v: T): void;
}) {
  return (
    <label className="studio-field">
      <span>{label}</span>
      <select className="studio-input" value={String(value)} onChange={(e) => onChange(options.find((o) => String(o.value) === e.target.value)!.value)}>
        {options.map((o) => <option key={String(o.value)} value={String(o.value)}>{o.label}</option>)}
      </select>
    </label>
  );
}

/** The Settings tab: every persisted setting of spec 002 §3 with the choices of §9. */
export function StudioSettingsForm({ settings, onChange }: { settings: StudioSettings; onChange(patch: Partial<StudioSettings>): void }) {
  const formats = useMemo(() => supportedVideoFormats((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t)), []);
  return (
    <div className="studio-settings">
      <Choice label="Resolution" value={settings.videoResolution} options={STUDIO_RESOLUTIONS.map((r) => ({ value: r, label: r }))} onChange={(videoResolution) => onChange({ videoResolution })} />
      <Choice label="Frame rate" value={settings.videoFPS} options={STUDIO_FPS.map((f) => ({ value: f, label: `${f} fps` }))} onChange={(videoFPS) => onChange({ videoFPS })} />
      <Choice label="Video format" value={settings.videoFormat} options={formats.map((f) => ({ value: f.id, label: f.label }))} onChange={(videoFormat) => onChange({ videoFormat })} />
      <Choice label="Screenshot format" value={settings.screenshotFormat} options={SCREENSHOT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} onChange={(screenshotFormat) => onChange({ screenshotFormat })} />
      <NumberSetting label="Width" value={settings.containerWidth} min={200} max={2000} clamp={clampSize} onChange={(containerWidth) => onChange({ containerWidth })} />
      <NumberSetting label="Height" value={settings.containerHeight} min={200} max={2000} clamp={clampSize} onChange={(containerHeight) => onChange({ containerHeight })} />
      <span className="studio-field">
        <span>Presets</span>
        <span className="studio-presets">
          {Object.entries(CONTAINER_PRESETS).map(([name, p]) => (
            <button key={name} type="button" className="studio-btn" onClick={() => onChange({ containerWidth: p.width, containerHeight: p.height })}>{name}</button>
          ))}
        </span>
      </span>
      <NumberSetting label="Container padding" value={settings.containerPadding} min={0} max={50} clamp={clampPadding} onChange={(containerPadding) => onChange({ containerPadding })} />
      <NumberSetting label="App padding" value={settings.appPadding} min={0} max={50} clamp={clampPadding} onChange={(appPadding) => onChange({ appPadding })} />
      <NumberSetting label="Border radius" value={settings.appBorderRadius} min={0} max={20} clamp={clampRadius} onChange={(appBorderRadius) => onChange({ appBorderRadius })} />
      <Choice label="Background" value={settings.backgroundType} options={[{ value: 'gradient', label: 'Gradient' }, { value: 'color', label: 'Color' }]} onChange={(backgroundType) => onChange({ backgroundType })} />
      {settings.backgroundType === 'color' && (
        <label className="studio-field">
          <span>Background color</span>
          <input className="studio-color" type="color" value={settings.backgroundColor} onChange={(e) => onChange({ backgroundColor: e.target.value })} />
        </label>
      )}
      <label className="studio-field">
        <span>App background</span>
        <input className="studio-color" type="color" value={settings.appWrapperBackground} onChange={(e) => onChange({ appWrapperBackground: e.target.value })} />
      </label>
    </div>
  );
}
