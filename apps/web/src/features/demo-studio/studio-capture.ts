/**
 * What the studio asks of the browser (spec 002 §3, §7): element capture of the container
 * (Chrome 132+: RestrictionTarget), MediaRecorder emitting data every 100 ms, and screenshots of
 * the container drawn by html-to-image.
 */
import { toCanvas } from 'html-to-image';
import { recordingName, STUDIO_VIDEO_FORMATS, type StudioSettings } from './studio-settings';

/** MediaRecorder hands over data every 100 ms (spec 002 §7). */
export const RECORDER_TIMESLICE_MS = 100;

export interface StudioEntry {
  id: string;
  kind: 'video' | 'screenshot';
  name: string;
  url: string;
  blob: Blob;
  /** ISO time. */
  timestamp: string;
  format: string;
  size: number;
}

interface RestrictionTargetStatic {
  fromElement(element: Element): Promise<unknown>;
}
type RestrictableTrack = MediaStreamTrack & { restrictTo(target: unknown): Promise<void> };

function restrictionTarget(): RestrictionTargetStatic | null {
  const value = (globalThis as { RestrictionTarget?: RestrictionTargetStatic }).RestrictionTarget;
  return value && typeof value.fromElement === 'function' ? value : null;
}

export const ELEMENT_CAPTURE_MISSING = 'Element capture is not supported in this browser. Recording needs Chrome 132 or later.';

export interface ActiveRecording {
  stop(): Promise<StudioEntry>;
}

/**
 * Starts recording `container` alone, telling `onBytes` how much is recorded as data arrives;
 * throws (with the message the alert shows) when it cannot.
 */
export async function startRecording(
  container: HTMLElement | null, settings: StudioSettings, onBytes: (recorded: number) => void,
): Promise<ActiveRecording> {
  const Target = restrictionTarget();
  if (!Target) throw new Error(ELEMENT_CAPTURE_MISSING);
  if (!container) throw new Error('The studio container is missing.');
  const [width, height] = settings.videoResolution.split('x').map(Number);
  const stream = await navigator.mediaDevices.getDisplayMedia({
    video: { frameRate: settings.videoFPS, width, height },
    audio: false,
    preferCurrentTab: true,
  } as DisplayMediaStreamOptions);
  const tracks = stream.getTracks();
  try {
    const [track] = stream.getVideoTracks() as Array<Partial<RestrictableTrack>>;
    // Only a capture of this tab can be restricted to an element (a screen or window cannot).
    if (typeof track?.restrictTo !== 'function') throw new Error('Choose this tab to record: element capture works on the current tab only.');
    await track.restrictTo(await Target.fromElement(container));
    const format = STUDIO_VIDEO_FORMATS.find((f) => f.id === settings.videoFormat) ?? STUDIO_VIDEO_FORMATS[0];
    const mimeType = MediaRecorder.isTypeSupported(format.mimeType) ? format.mimeType : '';
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : {});
    const chunks: Blob[] = [];
    let recorded = 0;
    recorder.ondataavailable = (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      recorded += event.data.size;
      onBytes(recorded);
    };
    recorder.start(RECORDER_TIMESLICE_MS);
    return {
      stop: () => new Promise<StudioEntry>((resolve) => {
        recorder.onstop = () => {
          for (const t of tracks) t.stop();
          const blob = new Blob(chunks, { type: recorder.mimeType || format.mimeType });
          const time = Date.now();
          resolve({
            id: String(time), kind: 'video', name: recordingName(time, format.extension), url: URL.createObjectURL(blob), blob,
            timestamp: new Date(time).toISOString(), format: format.extension, size: blob.size,
          });
        };
        recorder.stop();
      }),
    };
  } catch (error) {
    for (const t of tracks) t.stop();
    throw error;
  }
}

/** The container as a PNG or WebP image. */
export async function captureScreenshot(container: HTMLElement, format: StudioSettings['screenshotFormat'], name: string): Promise<StudioEntry> {
  const canvas = await toCanvas(container, { pixelRatio: 1, cacheBust: true });
  const blob = await canvasBlob(canvas, format);
  const at = new Date();
  return {
    id: `screenshot-${at.getTime()}-${Math.random().toString(36).slice(2, 8)}`, kind: 'screenshot', name, url: URL.createObjectURL(blob), blob,
    timestamp: at.toISOString(), format, size: blob.size,
  };
}

function canvasBlob(canvas: HTMLCanvasElement, format: 'png' | 'webp'): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The image could not be encoded'))), `image/${format}`, 0.95));
}

/** A screenshot converted to the other format (the list offers PNG and WebP for each). */
export async function convertImage(entry: StudioEntry, format: 'png' | 'webp'): Promise<Blob> {
  if (entry.format === format) return entry.blob;
  const bitmap = await createImageBitmap(entry.blob);
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  return canvasBlob(canvas, format);
}

/** Saves a blob under a name through a temporary link. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
