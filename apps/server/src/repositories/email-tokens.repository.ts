import type { Db } from '../db/database';

export type EmailTokenKind = 'verify' | 'reset';

export async function insertEmailToken(db: Db, userId: string, kind: EmailTokenKind, tokenHash: string, ttlMs: number, now: number): Promise<void> {
  await db.insertInto('email_tokens')
    .values({ token_hash: tokenHash, user_id: userId, kind, expires_at: now + ttlMs, used_at: null, created_at: now })
    .execute();
}

/**
 * Marks a link used and answers its user, in one statement so that two clicks racing on the
 * same link cannot both succeed. Expired, used or unknown links answer undefined.
 */
export async function consumeEmailToken(db: Db, kind: EmailTokenKind, tokenHash: string, now: number): Promise<string | undefined> {
  const row = await db.updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** A new link replaces the older unused ones of the same kind. */
export async function invalidateEmailTokens(db: Db, userId: string, kind: EmailTokenKind, now: number): Promise<void> {
  await db.updateTable('email_tokens').set({ used_at: now })
    .where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}
