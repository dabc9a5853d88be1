/**
 * Issue 17, performance: glass-to-glass latency of remote screen capture on loopback. An app page
 * runs the browser SDK and broadcasts a canvas; every frame it draws carries its number as a row
 * of black and white blocks, and the page notes when it drew it. The dashboard (the real web
 * client, right sidebar) plays the stream; on each frame it presents (requestVideoFrameCallback)
 * the blocks are read back from the video and the frame's number matched with its drawing time.
 * Both pages are in one Chromium, so `performance.timeOrigin + performance.now()` is one clock.
 * Reported: p50 and p95 over the frames of a 12 s run, with the resolution and frame rate the
 * viewer received. Goal p95 ≤ 150 ms.
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { signedInContext, signUpByApi } from '../../e2e/support/accounts';
import { FAKE_MEDIA_ARGS, launchBrowser, newContext } from '../../e2e/support/browser';
import { serveBrowserSdk } from '../../e2e/support/browser-sdk';
import buildWebIfStale from '../../e2e/support/global-setup';
import { startServer } from '../../e2e/support/server';
import { percentile, result, type BenchResult } from '../lib';

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 30;
const RUN_MS = 12_000;
/** The frame number is 16 blocks of 40×40 px (bit 15 first) along the top of the canvas. */
const BITS = 16;
const BLOCK = 40;

/** The app: a canvas whose frames are numbered, broadcast by the SDK. */
const APP_SCRIPT = (serverUrl: string, apiKey: string) => `(async () => {
  const { createSpyglass } = await import('/sdk/browser.js');
  const canvas = document.createElement('canvas');
  canvas.width = ${WIDTH}; canvas.height = ${HEIGHT};
  document.body.append(canvas);
  const g = canvas.getContext('2d');
  window.drawnAt = new Map();
  let n = 0;
  const draw = () => {
    n = (n + 1) % ${2 ** BITS};
    g.fillStyle = '#808080';
    g.fillRect(0, 0, ${WIDTH}, ${HEIGHT});
    for (let bit = 0; bit < ${BITS}; bit++) {
      g.fillStyle = (n >> (${BITS - 1} - bit)) & 1 ? '#fff' : '#000';
      g.fillRect(bit * ${BLOCK}, 0, ${BLOCK}, ${BLOCK});
    }
    window.drawnAt.set(n, performance.timeOrigin + performance.now());
  };
  setInterval(draw, ${1000 / FPS});
  window.spyglass = createSpyglass({
    serverUrl: ${JSON.stringify(serverUrl)}, apiKey: ${JSON.stringify(apiKey)},
    device: { name: 'Latency bench', platform: 'android' },
    screenCapture: { stream: () => canvas.captureStream(${FPS}) },
  });
  await new Promise((resolve) => window.spyglass.on('welcome', resolve));
  return window.spyglass.deviceId;
})()`;

/** The dashboard side: reads each presented frame's number off the sidebar's video. */
const READ_FRAMES = `(async (runMs) => {
  const video = document.querySelector('.capture-video');
  const canvas = new OffscreenCanvas(${BITS * BLOCK}, ${BLOCK});
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const seen = [];
  const scale = video.videoWidth / ${WIDTH};
  const started = performance.now();
  let frames = 0;
  await new Promise((resolve) => {
    const onFrame = (now, meta) => {
      frames++;
      g.drawImage(video, 0, 0, ${BITS * BLOCK} * scale, ${BLOCK} * scale, 0, 0, ${BITS * BLOCK}, ${BLOCK});
      const pixels = g.getImageData(0, 0, ${BITS * BLOCK}, ${BLOCK}).data;
      let n = 0;
      for (let bit = 0; bit < ${BITS}; bit++) {
        const i = ((${BLOCK / 2}) * ${BITS * BLOCK} + bit * ${BLOCK} + ${BLOCK / 2}) * 4;
        n = (n << 1) | (pixels[i] > 128 ? 1 : 0);
      }
      seen.push([n, performance.timeOrigin + (meta.presentationTime ?? now)]);
      if (performance.now() - started < runMs) video.requestVideoFrameCallback(onFrame);
      else resolve();
    };
    video.requestVideoFrameCallback(onFrame);
  });
  return { seen, frames, seconds: (performance.now() - started) / 1000, width: video.videoWidth, height: video.videoHeight };
})`;

export default async function screenCaptureBench(): Promise<BenchResult[]> {
  buildWebIfStale();
  const [server, site, browser] = await Promise.all([startServer(), serveBrowserSdk(), launchBrowser(FAKE_MEDIA_ARGS)]);
  try {
    const account = await signUpByApi(server);
    const appContext = await newContext(browser, site.url);
    const app = await appContext.newPage();
    await app.goto('/');
    const deviceId = await app.evaluate(APP_SCRIPT(server.url, account.profile.apiKey)) as string;

    const { page } = await signedInContext(browser, server, account);
    await page.goto(`/devices/${deviceId}`);
    await page.getByRole('button', { name: 'Capture Screen' }).click();
    await page.locator('.right-sidebar .capture[data-state="live"]').waitFor({ timeout: 30_000 });
    await waitForDecodedFrames(page);
    // A second to settle (the encoder ramps its bitrate up after the first frames).
    await page.waitForTimeout(1000);

    const read = await page.evaluate(`${READ_FRAMES}(${RUN_MS})`) as { seen: [number, number][]; frames: number; seconds: number; width: number; height: number };
    const drawnAt = new Map(await app.evaluate('[...window.drawnAt.entries()]') as [number, number][]);
    // A frame presented again (the video repeats the last one while waiting) counts once, at its first showing.
    const firstShown = new Map<number, number>();
    for (const [n, at] of read.seen) if (!firstShown.has(n)) firstShown.set(n, at);
    const latencies = [...firstShown].flatMap(([n, at]) => {
      const drawn = drawnAt.get(n);
      return drawn === undefined || at < drawn ? [] : [at - drawn];
    }).sort((a, b) => a - b);
    if (latencies.length < 50) throw new Error(`only ${latencies.length} frames could be matched`);
    const fps = read.frames / read.seconds;
    const notes = `${read.width}×${read.height} at ${fps.toFixed(1)} fps received (canvas ${WIDTH}×${HEIGHT} at ${FPS} fps), ${latencies.length} frames matched over ${read.seconds.toFixed(1)} s; loopback, host candidates; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`;
    const row = (name: string, value: number, goal?: string) =>
      result({ name, value: Math.round(value * 10) / 10, unit: 'ms', baseline: null, baselineValue: null, goal, notes });
    return [
      row('screen capture glass-to-glass p50', percentile(latencies, 50)),
      row('screen capture glass-to-glass p95', percentile(latencies, 95), '≤150 ms'),
      result({ name: 'screen capture frames received', value: Math.round(fps * 10) / 10, unit: 'fps', baseline: null, baselineValue: null, notes }),
    ];
  } finally {
    await browser.close();
    await site.close();
    await server.stop();
  }
}

async function waitForDecodedFrames(page: Page): Promise<void> {
  // Polled with evaluate: the dashboard's Content-Security-Policy forbids waitForFunction's eval.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const frames = await page.evaluate(`(() => {
      const video = document.querySelector('.capture-video');
      return video && video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0;
    })()`) as number;
    if (frames > 10) return;
    if (Date.now() > deadline) throw new Error('the dashboard decoded no frames within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
