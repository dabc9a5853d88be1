import type { Db } from '../db/database';

export type EmailTokenKind = 'verify' | 'reset' | 'change_email' | 'usage_report';

export async function insertEmailToken(
  db: Db, userId: string, kind: EmailTokenKind, tokenHash: string, ttlMs: number, now: number, newEmail: string | null = null,
): Promise<void> {
  await db.insertInto('email_tokens')
    .values({ token_hash: tokenHash, user_id: userId, kind, expires_at: now + ttlMs, used_at: null, created_at: now, new_email: newEmail })
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

/**
 * Consumes a link of the verification page, which serves both kinds that confirm an address: the
 * sign-up's `verify` and an e-mail change's `change_email` (with the address it moves to). One
 * statement, as above.
 */
export async function consumeAddressLink(db: Db, tokenHash: string, now: number): Promise<{ userId: string; newEmail: string | null } | undefined> {
  const row = await db.updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('kind', 'in', ['verify', 'change_email'])
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'kind', 'new_email'])
    .executeTakeFirst();
  if (!row) return undefined;
  return { userId: row.user_id, newEmail: row.kind === 'change_email' ? row.new_email : null };
}

/** A new link replaces the older unused ones of the same kind. */
export async function invalidateEmailTokens(db: Db, userId: string, kind: EmailTokenKind, now: number): Promise<void> {
  await db.updateTable('email_tokens').set({ used_at: now })
    .where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}
