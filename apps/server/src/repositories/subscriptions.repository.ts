import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database';
import type { SubscriptionsTable } from '../db/schema';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
type SubscriptionPatch = Omit<Updateable<SubscriptionsTable>, 'user_id' | 'created_at' | 'updated_at'>;

export function findSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Creates the account's row from `initial` (what it was before, usually its trial) merged with
 * `patch`, or applies `patch` to the existing row.
 */
export async function saveSubscription(
  db: Db,
  userId: string,
  initial: Omit<Insertable<SubscriptionsTable>, 'user_id' | 'created_at' | 'updated_at'>,
  patch: SubscriptionPatch,
  now: number,
): Promise<void> {
  await db.insertInto('subscriptions')
    .values({ ...initial, ...patch, user_id: userId, created_at: now, updated_at: now } as Insertable<SubscriptionsTable>)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...patch, updated_at: now }))
    .execute();
}

/**
 * Not scoped to an owner: a payment-provider webhook names only the provider's customer, and this
 * is how it finds the account.
 */
export async function findUserIdByStripeCustomer(db: Db, customerId: string): Promise<string | undefined> {
  const row = await db.selectFrom('subscriptions').select('user_id').where('stripe_customer_id', '=', customerId).executeTakeFirst();
  return row?.user_id;
}

/** Traffic the account received from `day` (UTC, YYYY-MM-DD) on: bytes and items. */
export async function sumTrafficSince(db: Db, userId: string, day: string): Promise<{ bytes: number; items: number }> {
  const row = await db.selectFrom('traffic_usage')
    .select((eb) => [eb.fn.sum<number | string | null>('bytes').as('bytes'), eb.fn.sum<number | string | null>('items').as('items')])
    .where('user_id', '=', userId).where('day', '>=', day)
    .executeTakeFirst();
  return { bytes: Number(row?.bytes ?? 0), items: Number(row?.items ?? 0) };
}

/** Records a webhook event as applied; false when it was applied before (a repeat or a replay). */
export async function recordBillingEvent(db: Db, id: string, type: string, now: number): Promise<boolean> {
  const result = await db.insertInto('billing_events').values({ id, type, received_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}
