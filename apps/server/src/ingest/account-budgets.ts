import type { IngestLimits } from './ingest-limits';
import { SharedTokenBucket, type Budget } from '../lib/shared-token-bucket';
import { TokenBucket } from '../lib/token-bucket';
import type { LimiterStore } from '../plugins/rate-limiter-store';

/** The account-wide ingest budgets, shared by all devices of one account. */
export interface AccountBudgets {
  items: Budget;
  bytes: Budget;
}

/** Makes the budgets of one account, when the account's first frame since a while arrives. */
export type AccountBudgetFactory = (userId: string, now: number) => AccountBudgets;

/**
 * Per node when the limiter store is this process's memory; with Redis, every node spends the
 * same account budget (SharedTokenBucket), so an account whose devices are spread over the nodes
 * of a load balancer gets the configured rate, not that rate per node.
 */
export function accountBudgetFactory(limits: IngestLimits, store: LimiterStore): AccountBudgetFactory {
  if (!store.shared) {
    return (_userId, now) => ({
      items: new TokenBucket(limits.accountItemsPerSecond, limits.accountItemsBurst, now),
      bytes: new TokenBucket(limits.accountBytesPerSecond, limits.accountBytesBurst, now),
    });
  }
  const items = store.limiter({ keyPrefix: 'ingest-account-items', ...SharedTokenBucket.window(limits.accountItemsPerSecond, limits.accountItemsBurst) });
  const bytes = store.limiter({ keyPrefix: 'ingest-account-bytes', ...SharedTokenBucket.window(limits.accountBytesPerSecond, limits.accountBytesBurst) });
  return (userId, now) => ({
    items: new SharedTokenBucket(items, userId, limits.accountItemsPerSecond, limits.accountItemsBurst, now),
    bytes: new SharedTokenBucket(bytes, userId, limits.accountBytesPerSecond, limits.accountBytesBurst, now),
  });
}
