import { useEffect, useRef, type Ref } from 'react';
import type { ScreenshotInput } from '@spyglass/sdk';
import type { ActivityLine } from './use-browser-device';

/** The emulated phone screen in CSS pixels (drawn at twice that for sharp pictures). */
export const SCREEN_SIZE = { width: 300, height: 560 } as const;
const SCALE = 2;

export interface EmulatedScreenState {
  appName: string;
  deviceName: string;
  online: boolean;
  lines: readonly ActivityLine[];
  /** The dashboard asked for the debug window (Open Debug Window). */
  sheetOpen: boolean;
}

/**
 * The emulated device's screen: one canvas, so Take Screenshot sends exactly what it shows and a
 * screen broadcast can capture it (`canvas.captureStream()`). It is the app's screen, not the
 * dashboard's: its colours do not follow the dashboard's theme.
 */
export function EmulatedScreen({ state, ref }: { state: EmulatedScreenState; ref?: Ref<HTMLCanvasElement> }) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (context) drawScreen(context, state);
  }, [state]);
  return (
    <canvas
      ref={(element) => {
        canvas.current = element;
        if (typeof ref === 'function') ref(element);
        else if (ref) ref.current = element;
      }}
      className="emulated-screen"
      width={SCREEN_SIZE.width * SCALE}
      height={SCREEN_SIZE.height * SCALE}
      style={{ width: SCREEN_SIZE.width, height: SCREEN_SIZE.height }}
      role="img"
      aria-label={`Screen of ${state.deviceName}`}
      data-emulated-screen=""
    />
  );
}

/** The canvas as a PNG screenshot item. */
export async function screenshotOf(canvas: HTMLCanvasElement | null, name: string): Promise<ScreenshotInput> {
  if (!canvas) throw new Error('The emulated screen is not shown');
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The emulated screen could not be captured');
  return { image: new Uint8Array(await blob.arrayBuffer()), name, mimeType: 'image/png', width: canvas.width, height: canvas.height };
}

/**
 * The canvas as a video stream for the dashboard's Capture Screen. A canvas stream carries a frame
 * only when the canvas was drawn on, and the screen is redrawn only when it changes: one pixel is
 * written back ten times a second, so a viewer sees the screen at once and keeps receiving it
 * while nothing moves.
 */
export function screenStreamOf(canvas: HTMLCanvasElement | null): MediaStream {
  const context = canvas?.getContext('2d');
  if (!canvas || !context) throw new Error('The emulated screen is not shown');
  const stream = canvas.captureStream(10);
  const [track] = stream.getVideoTracks();
  const timer = window.setInterval(() => {
    if (track?.readyState !== 'live') window.clearInterval(timer);
    else context.putImageData(context.getImageData(0, 0, 1, 1), 0, 0);
  }, 100);
  return stream;
}

const COLORS = { background: '#f4f5fb', bar: '#5b5bd6', card: '#ffffff', text: '#1c1c28', muted: '#6b6f80', online: '#1f9d55', offline: '#b0b3c0', error: '#d64545' };
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';

function drawScreen(context: CanvasRenderingContext2D, state: EmulatedScreenState): void {
  const { width, height } = SCREEN_SIZE;
  context.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  context.fillStyle = COLORS.background;
  context.fillRect(0, 0, width, height);

  // Status bar and the app's title bar.
  context.fillStyle = COLORS.bar;
  context.fillRect(0, 0, width, 92);
  context.fillStyle = '#ffffff';
  context.font = `600 12px ${FONT}`;
  context.fillText(new Date().toTimeString().slice(0, 5), 16, 20);
  context.textAlign = 'right';
  context.fillText('5G  100%', width - 16, 20);
  context.textAlign = 'left';
  context.font = `700 20px ${FONT}`;
  context.fillText(state.appName, 16, 56, width - 32);
  context.font = `13px ${FONT}`;
  context.fillText(state.deviceName, 16, 77, width - 32);

  // Connection status.
  context.fillStyle = state.online ? COLORS.online : COLORS.offline;
  context.beginPath();
  context.arc(22, 116, 5, 0, Math.PI * 2);
  context.fill();
  context.fillStyle = COLORS.text;
  context.font = `600 13px ${FONT}`;
  context.fillText(state.online ? 'Online' : 'Offline', 34, 121);

  // The latest activity, newest first.
  context.font = `600 11px ${FONT}`;
  context.fillStyle = COLORS.muted;
  context.fillText('ACTIVITY', 16, 152);
  const lines = state.lines.slice(-8).reverse();
  if (lines.length === 0) {
    context.font = `13px ${FONT}`;
    context.fillText('Nothing yet', 16, 176);
  }
  lines.forEach((line, index) => {
    const top = 162 + index * 44;
    context.fillStyle = COLORS.card;
    roundRect(context, 12, top, width - 24, 38, 8);
    context.fill();
    context.fillStyle = COLORS.muted;
    context.font = `10px ${FONT}`;
    context.fillText(new Date(line.time).toTimeString().slice(0, 8), 22, top + 14);
    context.fillStyle = line.isError ? COLORS.error : COLORS.text;
    context.font = `12px ${FONT}`;
    context.fillText(line.message, 22, top + 30, width - 44);
  });

  if (state.sheetOpen) {
    context.fillStyle = 'rgba(0, 0, 0, 0.35)';
    context.fillRect(0, 0, width, height);
    context.fillStyle = COLORS.card;
    roundRect(context, 0, height - 170, width, 170, 16);
    context.fill();
    context.fillStyle = COLORS.text;
    context.font = `700 16px ${FONT}`;
    context.fillText('Spyglass', 20, height - 134);
    context.font = `13px ${FONT}`;
    context.fillStyle = COLORS.muted;
    context.fillText('Debug window opened from the dashboard', 20, height - 110, width - 40);
  }
}

function roundRect(context: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  context.beginPath();
  context.roundRect(x, y, w, h, r);
}
