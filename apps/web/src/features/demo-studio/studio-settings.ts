/**
 * The demo recording studio's settings, rules and constants (spec 002 §3 'Persisted studio
 * settings', §4 'Demo studio', §5 'Studio inputs', §9). Pure: the wrapper keeps them in state and
 * in browser storage.
 */

/** The flag that wraps the app in the studio (spec 002 §2); any stored value turns it on. */
export const DEMO_FLAG_KEY = 'demo';
/** Every studio setting is kept under this one key, as JSON. */
export const STUDIO_SETTINGS_KEY = 'demoStudioSettings';

export const STUDIO_RESOLUTIONS = ['320x180', '480x270', '640x360', '1280x720', '1920x1080', '2560x1440', '3840x2160'] as const;
export const STUDIO_FPS = [24, 30, 60] as const;
export const SCREENSHOT_FORMATS = ['png', 'webp'] as const;

/** Spec 002 §9's video formats in its order, each with the MediaRecorder type it stands for. */
export const STUDIO_VIDEO_FORMATS = [
  { id: 'webm-vp9', label: 'WebM VP9', mimeType: 'video/webm;codecs=vp9', extension: 'webm' },
  { id: 'webm-vp8', label: 'VP8', mimeType: 'video/webm;codecs=vp8', extension: 'webm' },
  { id: 'webm', label: 'WebM', mimeType: 'video/webm', extension: 'webm' },
  { id: 'mp4-h264', label: 'MP4 H.264', mimeType: 'video/mp4;codecs=avc1', extension: 'mp4' },
  { id: 'mp4', label: 'MP4', mimeType: 'video/mp4', extension: 'mp4' },
  { id: 'ogg-theora', label: 'OGG Theora', mimeType: 'video/ogg;codecs=theora', extension: 'ogg' },
  { id: 'ogg', label: 'OGG', mimeType: 'video/ogg', extension: 'ogg' },
] as const;
export type VideoFormatId = (typeof STUDIO_VIDEO_FORMATS)[number]['id'];

export interface StudioSettings {
  zoom: number;
  backgroundType: 'gradient' | 'color';
  backgroundColor: string;
  appPadding: number;
  appBorderRadius: number;
  appWrapperBackground: string;
  containerPadding: number;
  videoResolution: (typeof STUDIO_RESOLUTIONS)[number];
  videoFPS: (typeof STUDIO_FPS)[number];
  videoFormat: VideoFormatId;
  containerWidth: number;
  containerHeight: number;
  activeTab: 'settings' | 'frames';
  autozoomEnabled: boolean;
  screenshotFormat: (typeof SCREENSHOT_FORMATS)[number];
}

export const STUDIO_GRADIENT = 'linear-gradient(135deg, #667eea 0%, #764ba2 100%)';

export const DEFAULT_STUDIO_SETTINGS: StudioSettings = {
  zoom: 1,
  backgroundType: 'gradient',
  backgroundColor: '#667eea',
  appPadding: 20,
  appBorderRadius: 10,
  appWrapperBackground: '#1a1a1a',
  containerPadding: 20,
  videoResolution: '1920x1080',
  videoFPS: 30,
  videoFormat: 'webm-vp9',
  containerWidth: 1280,
  containerHeight: 720,
  activeTab: 'settings',
  autozoomEnabled: true,
  screenshotFormat: 'png',
};

/** Container presets of §9. */
export const CONTAINER_PRESETS = { '720p': { width: 1280, height: 720 }, '1080p': { width: 1920, height: 1080 } } as const;

export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 3;
export const ZOOM_KEY_STEP = 0.1;
export const CLICK_ZOOM_STEP = 0.2;
export const CLICK_ZOOM_CAP = 1.2;
/** A click zooms only this far or farther from the container's centre. */
export const CLICK_ZOOM_MIN_DISTANCE = 350;

/** A whole number within [min, max]; anything that is not a number becomes `fallback`. */
export function clampInput(value: unknown, min: number, max: number, fallback: number): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.round(n)));
}

export const clampSize = (value: unknown) => clampInput(value, 200, 2000, 200);
export const clampPadding = (value: unknown) => clampInput(value, 0, 50, 0);
export const clampRadius = (value: unknown) => clampInput(value, 0, 20, 0);

/** Zoom within 0.5 to 3, to one hundredth (so 0.1 steps never drift). */
export function clampZoom(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, value)) * 100) / 100;
}

/** Ctrl with + or - changes zoom by 0.1, ctrl+0 resets it; null: not a zoom key. */
export function keyboardZoom(zoom: number, event: { key: string; ctrlKey: boolean }): number | null {
  if (!event.ctrlKey) return null;
  if (event.key === '+' || event.key === '=') return clampZoom(zoom + ZOOM_KEY_STEP);
  if (event.key === '-' || event.key === '_') return clampZoom(zoom - ZOOM_KEY_STEP);
  if (event.key === '0') return 1;
  return null;
}

/**
 * A click in the container adds 0.2, capped at 1.2, only with autozoom on and only beyond 350 px
 * from the container's centre; null: the click changes nothing.
 */
export function clickZoom(zoom: number, autozoom: boolean, click: { x: number; y: number }, centre: { x: number; y: number }): number | null {
  if (!autozoom) return null;
  if (Math.hypot(click.x - centre.x, click.y - centre.y) < CLICK_ZOOM_MIN_DISTANCE) return null;
  const next = Math.round(Math.min(CLICK_ZOOM_CAP, zoom + CLICK_ZOOM_STEP) * 100) / 100;
  return next === zoom ? null : next;
}

const oneOf = <T>(list: readonly T[], value: unknown, fallback: T): T => (list.includes(value as T) ? (value as T) : fallback);
const colour = (value: unknown, fallback: string) => (typeof value === 'string' && /^#[0-9a-f]{3,8}$/i.test(value) ? value : fallback);

/** Stored settings, each field checked against its range or choices; what is missing or wrong takes its default. */
export function parseStudioSettings(raw: string | null): StudioSettings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // Unreadable settings: the defaults.
  }
  const d = DEFAULT_STUDIO_SETTINGS;
  const has = (key: keyof StudioSettings) => stored[key] !== undefined;
  return {
    zoom: typeof stored.zoom === 'number' ? clampZoom(stored.zoom) : d.zoom,
    backgroundType: oneOf(['gradient', 'color'] as const, stored.backgroundType, d.backgroundType),
    backgroundColor: colour(stored.backgroundColor, d.backgroundColor),
    appPadding: has('appPadding') ? clampPadding(stored.appPadding) : d.appPadding,
    appBorderRadius: has('appBorderRadius') ? clampRadius(stored.appBorderRadius) : d.appBorderRadius,
    appWrapperBackground: colour(stored.appWrapperBackground, d.appWrapperBackground),
    containerPadding: has('containerPadding') ? clampPadding(stored.containerPadding) : d.containerPadding,
    videoResolution: oneOf(STUDIO_RESOLUTIONS, stored.videoResolution, d.videoResolution),
    videoFPS: oneOf(STUDIO_FPS, stored.videoFPS, d.videoFPS),
    videoFormat: oneOf(STUDIO_VIDEO_FORMATS.map((f) => f.id), stored.videoFormat, d.videoFormat),
    containerWidth: has('containerWidth') ? clampSize(stored.containerWidth) : d.containerWidth,
    containerHeight: has('containerHeight') ? clampSize(stored.containerHeight) : d.containerHeight,
    activeTab: oneOf(['settings', 'frames'] as const, stored.activeTab, d.activeTab),
    autozoomEnabled: typeof stored.autozoomEnabled === 'boolean' ? stored.autozoomEnabled : d.autozoomEnabled,
    screenshotFormat: oneOf(SCREENSHOT_FORMATS, stored.screenshotFormat, d.screenshotFormat),
  };
}

/** Only the video formats this browser can record are offered. */
export function supportedVideoFormats(isTypeSupported: (mimeType: string) => boolean) {
  return STUDIO_VIDEO_FORMATS.filter((f) => isTypeSupported(f.mimeType));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** recording-{time}.{webm|mp4|ogg}. */
export const recordingName = (time: number, extension: string) => `recording-${time}.${extension}`;

/** Screenshot_{date-time}.{png|webp}, in local time. */
export function screenshotName(at: Date, format: StudioSettings['screenshotFormat']): string {
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return `Screenshot_${date}_${time}.${format}`;
}

/** Spec 000 §9: the screen recording demo on /record-demo uses 60 fps, VP9, 20 Mbps. */
export const RECORD_DEMO = { fps: 60, mimeType: 'video/webm;codecs=vp9', bitsPerSecond: 20_000_000 } as const;
