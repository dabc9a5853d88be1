import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_MEDIA_ARGS, launchBrowser, newContext } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

/** Spec 000 §2.1 and §9 (issue 21 acceptance 4): a signed-out visitor records a window. */
describe('/record-demo', () => {
  const env = useE2eEnvironment();
  let browser: Browser;
  beforeAll(async () => {
    // The fake screen picker shares a generated test pattern without asking.
    browser = await launchBrowser(FAKE_MEDIA_ARGS);
  });
  afterAll(() => browser?.close());

  it('records a fake-media window at 60 fps, VP9, 20 Mbps into a downloadable WebM file', async () => {
    const context = await newContext(browser, env.server.url, { acceptDownloads: true });
    try {
      const page = await context.newPage();
      // What the page asks of the browser, seen from inside it.
      await page.addInitScript(`(() => {
        const gdm = navigator.mediaDevices.getDisplayMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getDisplayMedia = (c) => { window.__displayConstraints = c; return gdm(c); };
        const Recorder = window.MediaRecorder;
        window.MediaRecorder = class extends Recorder { constructor(s, o) { super(s, o); window.__recorderOptions = o; } };
        window.MediaRecorder.isTypeSupported = Recorder.isTypeSupported;
      })()`);
      await page.goto('/record-demo');
      await visible(page.getByRole('heading', { name: 'Record a demo' }));
      expect(await page.getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(0);
      await screenshotBothSchemes(page, 'record-demo');

      await page.getByRole('button', { name: 'Choose a window and record' }).click();
      await visible(page.getByRole('status').getByText(/^Recording · [1-9]\d* KB$/));
      expect(await page.evaluate('window.__displayConstraints')).toEqual({ video: { frameRate: 60 }, audio: false });
      expect(await page.evaluate('window.__recorderOptions')).toEqual({ mimeType: 'video/webm;codecs=vp9', videoBitsPerSecond: 20_000_000 });
      await page.getByRole('button', { name: 'Stop recording' }).click();

      const link = await visible(page.getByRole('link', { name: /^Download video/ }));
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(/^demo-recording-\d+\.webm$/);
      const bytes = fs.readFileSync(await download.path());
      // A WebM (EBML) file whose track is VP9.
      expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
      expect(bytes.includes(Buffer.from('V_VP9'))).toBe(true);
      await screenshotBothSchemes(page, 'record-demo-done');
    } finally {
      await context.close();
    }
  });
});
