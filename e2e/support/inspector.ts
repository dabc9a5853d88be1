import { itemSummary, type CompactItem } from '@spyglass/protocol';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The request list's row of the item numbered `num` (the # column). */
export const rowOfNum = (page: Page, num: number) => page.locator('.req-row').filter({ has: page.locator('.req-td-id', { hasText: new RegExp(`^${num}$`) }) });

/** The details panel of the request inspector. */
export const details = (page: Page) => page.getByRole('region', { name: 'Details' });

/**
 * Opens an item's details by clicking its row, until the panel's status bar names that item: a
 * click that lands while the rows are being re-rendered (history reloading after a reload) is
 * simply repeated.
 */
export async function openItem(page: Page, item: CompactItem): Promise<void> {
  const expected = item.type === 'network' ? item.details.request.url : itemSummary(item).split('\n', 1)[0]!;
  await expect.poll(async () => {
    await rowOfNum(page, item.num).click();
    const title = details(page).locator('.details-title').filter({ hasText: expected });
    await title.waitFor({ timeout: 5000 }).catch(() => undefined);
    return (await title.count()) > 0;
  }, { timeout: 60_000 }).toBe(true);
}
