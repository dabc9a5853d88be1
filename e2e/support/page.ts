import type { Locator, Page } from 'playwright-core';

export const UI_TIMEOUT_MS = 15_000;

/** Waits until `locator` is visible; fails with what the page shows instead. */
export async function visible(locator: Locator, timeout = UI_TIMEOUT_MS): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (error) {
    const page = locator.page();
    const shown = (await page.locator('body').innerText().catch(() => '(unreadable)')).slice(0, 2000);
    throw new Error(`${(error as Error).message}\n--- ${page.url()} shows ---\n${shown}`, { cause: error });
  }
  return locator.first();
}

/** Resolves with the answer of the next call matching `method` and `path` (below /v1) that `action` triggers. */
export async function answerOf(page: Page, method: string, path: string, action: () => Promise<unknown>) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === `/v1${path}`, { timeout: UI_TIMEOUT_MS }),
    action(),
  ]);
  return response;
}

/**
 * Drags `handle` with the mouse by `dx`, `dy` in `steps` moves, from its vertical middle and `fromX`
 * px from its left edge (its middle when not given: a panel's top edge is grabbed away from the
 * buttons at its ends).
 */
export async function dragBy(handle: Locator, dx: number, dy: number, { fromX, steps = 5 }: { fromX?: number; steps?: number } = {}): Promise<void> {
  const box = await handle.boundingBox();
  if (!box) throw new Error(`${handle.toString()} has no box`);
  const mouse = handle.page().mouse;
  const x = box.x + (fromX ?? box.width / 2);
  const y = box.y + box.height / 2;
  await mouse.move(x, y);
  await mouse.down();
  await mouse.move(x + dx, y + dy, { steps });
  await mouse.up();
}

// The e2e programs compile without the DOM library, so browser-side code is passed as expressions.

export const localStorageItem = (page: Page, key: string) =>
  page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);

export const localStorageLength = (page: Page) => page.evaluate<number>('localStorage.length');

export const clipboardText = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');
