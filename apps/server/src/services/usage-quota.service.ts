import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { Mailer } from '../plugins/mail';
import type { TrafficUsage } from '../repositories/item-writer.repository';
import { claimQuotaAlert } from '../repositories/usage.repository';
import { findUserById } from '../repositories/users.repository';
import type { BillingService } from './billing.service';

/** Spec 000 §9: the alert at 80 % of the period's traffic limit, the block at 100 %. */
export const QUOTA_ALERT_RATIO = 0.8;
/**
 * How long an account's figures are trusted before they are read again: other nodes' traffic,
 * a new period and a plan changed on another node reach this node within this time.
 */
export const QUOTA_REFRESH_MS = 30_000;
/** The quota_exceeded error's text: the quota banner's (spec 000 §8). */
export const QUOTA_EXCEEDED_MESSAGE = 'You have exceeded your quota. Please upgrade your plan';
/** When a device refused for its quota asks again: soon enough that an upgrade is felt at once. */
export const QUOTA_RETRY_AFTER_MS = 5_000;
/** The text a device is refused with once the account's trial or subscription has ended (spec 000 §8). */
export const SUBSCRIPTION_ENDED_MESSAGE = 'Your trial has expired. Please consider upgrading to a paid plan';
/** When a device of an account without a usable subscription asks again: an upgrade is felt within this. */
export const SUBSCRIPTION_RETRY_AFTER_MS = 30_000;

/**
 * Why new items of an account are refused, as the device is told. Both are `quota_exceeded`, the
 * code every SDK release already answers by keeping its items and asking again later; the
 * message says which it is.
 */
export interface ItemsBlock {
  code: 'quota_exceeded';
  message: string;
  retryAfterMs: number;
}

const QUOTA_BLOCK: ItemsBlock = { code: 'quota_exceeded', message: QUOTA_EXCEEDED_MESSAGE, retryAfterMs: QUOTA_RETRY_AFTER_MS };
const SUBSCRIPTION_BLOCK: ItemsBlock = { code: 'quota_exceeded', message: SUBSCRIPTION_ENDED_MESSAGE, retryAfterMs: SUBSCRIPTION_RETRY_AFTER_MS };
/** A blocked account is asked about more often, so that an upgrade made anywhere lifts the block soon. */
export const BLOCKED_REFRESH_MS = 2_000;

interface AccountQuota {
  /** Whether the account may use the product (spec 000 §4.4: free user, active, trialing, trial not over). */
  usable: boolean;
  /** Bytes the period allows; null: unmetered (free users, self-hosted, the trial). */
  limit: number | null;
  periodStart: number;
  used: number;
  loadedAt: number;
  loading: Promise<void> | null;
}

interface UsageQuotaDeps {
  db: Db;
  billing: BillingService;
  mailer: Mailer;
  publicUrl: string;
  now(): number;
  log: FastifyBaseLogger;
  /** Told when an account's block starts or ends, so that its dashboards show it at once; must not throw. */
  quotaChanged?(userId: string, exceeded: boolean): void;
}

/**
 * Traffic quotas on the ingest path (spec 000 §4.4, 001 §9). The device path asks `blockOf`
 * for every items frame, so it answers from memory: each account's limit and period usage are
 * read when one of its devices connects and kept current by what this node's commits meter, and
 * read again from the database now and then (other nodes meter too). Crossing 80 % mails the
 * quota alert, once per billing period across all nodes.
 */
export class UsageQuotas {
  private readonly accounts = new Map<string, AccountQuota>();

  constructor(private readonly deps: UsageQuotaDeps) {}

  /** Loads (or reloads) the account's limit and the traffic of its current period. */
  load(userId: string): Promise<void> {
    const known = this.accounts.get(userId);
    if (known?.loading) return known.loading;
    const entry: AccountQuota = known ?? { usable: true, limit: null, periodStart: 0, used: 0, loadedAt: 0, loading: null };
    this.accounts.set(userId, entry);
    entry.loading = this.read(userId, entry)
      .catch((err: unknown) => this.deps.log.error({ err, userId }, 'reading the traffic quota failed'))
      .finally(() => { entry.loading = null; });
    return entry.loading;
  }

  /** A plan changed (checkout, webhook, free plan): the next frame is judged by the new limit. */
  planChanged(userId: string): Promise<void> {
    return this.accounts.has(userId) ? this.load(userId) : Promise.resolve();
  }

  /**
   * Why new items of the account are refused now (its trial or subscription ended, or its traffic
   * is over the limit), or null; cheap, answered from memory. The REST API answers such an
   * account 402; its devices are told here, keep their items and ask again later.
   */
  blockOf(userId: string): ItemsBlock | null {
    const entry = this.accounts.get(userId);
    if (!entry) return null;
    const block = !entry.usable ? SUBSCRIPTION_BLOCK : isOver(entry, 1) ? QUOTA_BLOCK : null;
    const age = this.deps.now() - entry.loadedAt;
    if (!entry.loading && age > (block ? BLOCKED_REFRESH_MS : QUOTA_REFRESH_MS)) void this.load(userId);
    return block;
  }

  /** What one commit metered: the accounts' period usage grows, and crossing 80 % sends the alert. */
  metered(usage: ReadonlyArray<TrafficUsage>): void {
    for (const u of usage) {
      const entry = this.accounts.get(u.userId);
      if (!entry || entry.limit === null) continue;
      const before = entry.used;
      entry.used += u.bytes;
      if (before < entry.limit * QUOTA_ALERT_RATIO && isOver(entry, QUOTA_ALERT_RATIO)) void this.alert(u.userId, entry);
      if (before < entry.limit && isOver(entry, 1)) this.deps.quotaChanged?.(u.userId, true);
    }
  }

  private async read(userId: string, entry: AccountQuota): Promise<void> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) {
      this.accounts.delete(userId);
      return;
    }
    const subscription = await this.deps.billing.subscription(user);
    entry.usable = await this.deps.billing.isUsable(user);
    const wasAlerted = isOver(entry, QUOTA_ALERT_RATIO);
    const known = entry.loadedAt > 0;
    const wasBlocked = isOver(entry, 1);
    entry.limit = subscription.trafficLimit;
    entry.periodStart = subscription.billingPeriodStart ? Date.parse(subscription.billingPeriodStart) : user.created_at;
    entry.used = subscription.trafficUsed;
    entry.loadedAt = this.deps.now();
    // An upgrade, a new period or other nodes' traffic moved the line: dashboards follow.
    if (known && wasBlocked !== isOver(entry, 1)) this.deps.quotaChanged?.(userId, !wasBlocked);
    // Traffic metered on other nodes may be what crossed the line: the alert is claimed once anyway.
    if (!wasAlerted && isOver(entry, QUOTA_ALERT_RATIO)) await this.alert(userId, entry);
  }

  private async alert(userId: string, entry: AccountQuota): Promise<void> {
    try {
      if (!(await claimQuotaAlert(this.deps.db, userId, entry.periodStart, this.deps.now()))) return;
      const user = await findUserById(this.deps.db, userId);
      if (!user) return;
      const percent = Math.floor((entry.used / entry.limit!) * 100);
      await this.deps.mailer.send({
        to: user.email,
        subject: `You have used ${percent}% of your Spyglass traffic`,
        text: `Your Spyglass account has received ${formatMegabytes(entry.used)} of the ${formatMegabytes(entry.limit!)} its plan includes in this billing period (${percent}%).\n\n`
          + `At 100% new requests from your devices are rejected until the next period; everything already captured stays readable.\n\n`
          + `Upgrade your plan: ${this.deps.publicUrl}/settings#subscription-details`,
      });
    } catch (err) {
      this.deps.log.error({ err, userId }, 'quota alert failed');
    }
  }
}

const isOver = (entry: AccountQuota, ratio: number) => entry.limit !== null && entry.used >= entry.limit * ratio;

/** Spec 000 §9: MB are 10^6 bytes. */
const formatMegabytes = (bytes: number) => `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 2 })} MB`;
