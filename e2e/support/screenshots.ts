import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './paths';

/** What the browser-side callbacks use of <html> (this program is compiled without the DOM library). */
interface ThemedElement {
  removeAttribute(name: string): void;
  setAttribute(name: string, value: string): void;
}

/**
 * Writes e2e/screenshots/<name>-light.png and <name>-dark.png. The page is shown with the system
 * scheme (the `default` theme, no data-theme attribute) so both palettes come from the same CSS
 * path a user's system setting takes; the page's own theme attribute is put back afterwards.
 */
export async function screenshotBothSchemes(page: Page, name: string): Promise<string[]> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const root = page.locator('html');
  const saved = await root.getAttribute('data-theme');
  await root.evaluate((el: ThemedElement) => el.removeAttribute('data-theme'));
  const files: string[] = [];
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const file = path.join(SCREENSHOT_DIR, `${name}-${scheme}.png`);
      // `animations: 'disabled'` finishes colour transitions, so the picture shows the final palette.
      await withViewportShowingAll(page, () => page.screenshot({ path: file, animations: 'disabled' }));
      files.push(file);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    if (saved) await root.evaluate((el: ThemedElement, theme) => el.setAttribute('data-theme', theme), saved);
  }
  return files;
}

const MAX_SCREENSHOT_HEIGHT = 4000;

/**
 * The dashboard scrolls inside its panels, not the document, so a full-page screenshot would stop
 * at the viewport. The viewport grows by the hidden height of the tallest scrolled panel instead.
 */
async function withViewportShowingAll<T>(page: Page, shoot: () => Promise<T>): Promise<T> {
  const viewport = page.viewportSize();
  const hidden = await page.evaluate<number>(`Math.max(0, ...[...document.querySelectorAll('*')].map((el) => {
    const overflow = getComputedStyle(el).overflowY;
    return overflow === 'auto' || overflow === 'scroll' ? el.scrollHeight - el.clientHeight : 0;
  }), document.documentElement.scrollHeight - window.innerHeight)`);
  if (!viewport || hidden <= 0) return shoot();
  await page.setViewportSize({ width: viewport.width, height: Math.min(MAX_SCREENSHOT_HEIGHT, viewport.height + hidden) });
  try {
    return await shoot();
  } finally {
    await page.setViewportSize(viewport);
  }
}
