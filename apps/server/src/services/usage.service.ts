import type { UsageHour, UsageRange } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { sha256 } from '../lib/crypto';
import { consumeEmailToken } from '../repositories/email-tokens.repository';
import { HOUR_MS, findUsageHours } from '../repositories/usage.repository';
import { mergeSettings } from '../repositories/users.repository';

/**
 * Spec 000 §7.4 `/billing/usage?days`: the account's traffic per hour over the last `days` days
 * (24 × days hours, the current one included); hours without traffic are left out.
 */
export async function usageByHour(db: Db, userId: string, days: UsageRange, now: number): Promise<UsageHour[]> {
  const currentHour = now - (now % HOUR_MS);
  const since = currentHour - (24 * days - 1) * HOUR_MS;
  const rows = await findUsageHours(db, userId, since);
  return rows.map((r) => ({ hour: new Date(r.hour).toISOString(), count: r.count, size: r.size }));
}

/** The weekly report's unsubscribe link: turns the account's wantsUsageReport off; false for a bad or used link. */
export async function unsubscribeFromUsageReport(db: Db, token: string, now: number): Promise<boolean> {
  const userId = await consumeEmailToken(db, 'usage_report', sha256(token), now);
  if (!userId) return false;
  return typeof (await mergeSettings(db, userId, { wantsUsageReport: false })) === 'object';
}
