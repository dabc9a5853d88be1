import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('Chromium not found: set CHROMIUM_PATH or install Debian\'s chromium package (npm test does it when run as root).');
  return found;
}

/**
 * Chromium's stand-ins for cameras, microphones and the screen picker: `getDisplayMedia` shares a
 * generated test pattern without asking (screen capture tests pass them to `launchBrowser`).
 */
export const FAKE_MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Debian's Chromium driven by playwright-core (no browser download), with `extraArgs` for one test's needs. */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

// Page code, as text: the e2e sources are compiled without the DOM's types.
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' (' + e.sourceFile + ':' + e.lineNumber + ')');
});`;

/**
 * A fresh browser profile (own local storage) with relative URLs resolved against `baseURL`. Both
 * hosts send a strict Content-Security-Policy; anything it blocks is logged as a console error
 * ('CSP violation: ...'), so every test that records page errors also proves the page works under it.
 */
export async function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP_VIEWPORT, colorScheme: 'light', ...options });
  await context.addInitScript(REPORT_CSP_VIOLATIONS);
  return context;
}

/**
 * Uncaught errors and console errors of the page, for assertions and for the message of a failing
 * test. Failed network calls the test provokes on purpose (a refused sign-in) also log console
 * errors, so tests filter what they expect.
 */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}
