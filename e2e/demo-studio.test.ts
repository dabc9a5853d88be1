import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, signUpByApi } from './support/accounts';
import { FAKE_MEDIA_ARGS, launchBrowser } from './support/browser';
import { useE2eEnvironment } from './support/environment';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

const zoomLevel = (page: Page) => page.getByLabel('Zoom level').textContent();
const recordings = (page: Page) => page.getByRole('region', { name: 'Recordings' });

/** Downloads what `click` starts; answers the file's name and first bytes. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; head: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const saved = await file.path();
  return { name: file.suggestedFilename(), head: fs.readFileSync(saved).subarray(0, 16) };
}

/** Spec 002 §2-§5, §8, §9 (issue 21 acceptance 3), in Chromium with fake media. */
describe('demo recording studio', () => {
  const env = useE2eEnvironment();
  let browser: Browser;
  beforeAll(async () => {
    // Fake cameras, and the tab-capture prompt answered with this tab (the fake screen picker would
    // share a fake monitor, which element capture cannot restrict).
    browser = await launchBrowser([FAKE_MEDIA_ARGS[0]!, '--auto-accept-this-tab-capture']);
  });
  afterAll(() => browser?.close());

  it('wraps the app, zooms by the rules, lists and downloads screenshots and recordings, keeps its settings, and Close unwraps', async () => {
    const account = await signUpByApi(env.server);
    const { context, page } = await signedInContext(browser, env.server, account, { viewport: { width: 1500, height: 1000 }, acceptDownloads: true });
    try {
      const alerts: string[] = [];
      page.on('dialog', (dialog) => {
        alerts.push(dialog.message());
        void dialog.accept();
      });
      await page.evaluate("localStorage.setItem('demo', '1')");
      await page.goto('/devices');
      const studio = await visible(page.getByRole('region', { name: 'Demo studio' }));
      const container = page.getByTestId('studio-container');
      await visible(container.getByRole('heading', { name: 'Devices' }));
      await visible(page.getByText('1280 × 720'));
      expect(await zoomLevel(page)).toBe('100%');
      await screenshotBothSchemes(page, 'demo-studio');

      // Keyboard: ctrl with + or - by 10 %, ctrl+0 back to 100 %.
      await page.keyboard.press('Control+Equal');
      await expect.poll(() => zoomLevel(page)).toBe('110%');
      await page.keyboard.press('Control+Minus');
      await page.keyboard.press('Control+Minus');
      await expect.poll(() => zoomLevel(page)).toBe('90%');
      await page.keyboard.press('Control+0');
      await expect.poll(() => zoomLevel(page)).toBe('100%');
      // Click: near the centre nothing; beyond 350 px +20 %, capped at 120 %; nothing with autozoom off.
      await container.click({ position: { x: 640, y: 360 } });
      expect(await zoomLevel(page)).toBe('100%');
      await container.click({ position: { x: 8, y: 8 } });
      await expect.poll(() => zoomLevel(page)).toBe('120%');
      await container.click({ position: { x: 8, y: 8 } });
      expect(await zoomLevel(page)).toBe('120%');
      await studio.getByRole('button', { name: 'Zoom out' }).click();
      await expect.poll(() => zoomLevel(page)).toBe('110%');
      await studio.getByRole('button', { name: 'Autozoom: Enabled' }).click();
      await container.click({ position: { x: 8, y: 8 } });
      expect(await zoomLevel(page)).toBe('110%');
      await studio.getByRole('button', { name: 'Autozoom: Disabled' }).click();
      await page.keyboard.press('Control+0');

      // A screenshot of the container, listed and downloaded as PNG and as WebP.
      await studio.getByRole('button', { name: 'Screenshot', exact: true }).click();
      await visible(recordings(page).getByRole('heading', { name: 'Recordings (1)' }));
      const png = await download(page, () => recordings(page).getByRole('button', { name: 'PNG', exact: true }).click());
      expect(png.name).toMatch(/^Screenshot_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.png$/);
      expect(png.head.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const webp = await download(page, () => recordings(page).getByRole('button', { name: 'WebP', exact: true }).click());
      expect(webp.name).toMatch(/\.webp$/);
      expect([webp.head.subarray(0, 4).toString(), webp.head.subarray(8, 12).toString()]).toEqual(['RIFF', 'WEBP']);
      // The preview modal opens on the thumbnail and closes on its close button.
      await recordings(page).getByRole('button', { name: /^Preview Screenshot_/ }).click();
      await visible(page.getByRole('dialog'));
      await page.getByRole('button', { name: 'Close preview' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

      // A recording by element capture where this Chromium has it; otherwise the alert of §5 / §8.
      const hasElementCapture = await page.evaluate<boolean>("typeof RestrictionTarget !== 'undefined'");
      await studio.getByRole('button', { name: 'Start', exact: true }).click();
      if (hasElementCapture) {
        // Headless Chromium applies element capture (restrictTo resolves) but delivers no frames for a
        // restricted track (measured: 0 bytes in 2 s, against 17 KB unrestricted), so the file's
        // content is only checked where frames arrive; its listing and download are checked always.
        await visible(studio.getByRole('status').getByText(/^Recording · \d+ KB$/));
        await studio.getByRole('button', { name: 'Stop', exact: true }).click();
        await visible(recordings(page).getByRole('heading', { name: 'Recordings (2)' }));
        const video = await download(page, () => recordings(page).getByRole('button', { name: 'Download', exact: true }).click());
        expect(video.name).toMatch(/^recording-\d+\.webm$/);
        if (video.head.length > 0) expect(video.head.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
      } else {
        await expect.poll(() => alerts).toEqual(['Element capture is not supported in this browser. Recording needs Chrome 132 or later.']);
      }
      await screenshotBothSchemes(page, 'demo-studio-recordings');

      // Settings survive a reload.
      const width = studio.getByLabel('Width');
      await width.fill('5000');
      await width.press('Enter');
      await visible(page.getByText('2000 × 720'));
      await width.fill('1000');
      await width.press('Enter');
      await studio.getByRole('button', { name: 'Autozoom: Enabled' }).click();
      await studio.getByRole('tab', { name: 'Frames' }).click();
      await visible(studio.getByText('Frame management is coming soon.'));
      await page.reload();
      await visible(page.getByText('1000 × 720'));
      await visible(studio.getByText('Frame management is coming soon.'));
      await visible(studio.getByRole('button', { name: 'Autozoom: Disabled' }));
      await studio.getByRole('tab', { name: 'Settings' }).click();
      expect(await studio.getByLabel('Width').inputValue()).toBe('1000');

      // Close removes the flag and reloads: the app alone.
      await studio.getByRole('button', { name: 'Close', exact: true }).click();
      await visible(page.getByRole('heading', { name: 'Devices' }));
      await expect.poll(() => page.getByRole('region', { name: 'Demo studio' }).count()).toBe(0);
      expect(await page.evaluate("localStorage.getItem('demo')")).toBeNull();
    } finally {
      await context.close();
    }
  });
});
