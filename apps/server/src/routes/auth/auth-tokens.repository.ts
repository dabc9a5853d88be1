import type { UserRow } from '../user/users.repository';
import type { Db } from '../../db/database';

export async function insertAuthToken(db: Db, userId: string, tokenHash: string): Promise<void> {
  const now = Date.now();
  await db.insertInto('auth_tokens').values({ token_hash: tokenHash, user_id: userId, created_at: now, last_used_at: now }).execute();
}

export function findUserByTokenHash(db: Db, tokenHash: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .selectAll('users')
    .where('auth_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteAuthToken(db: Db, userId: string, tokenHash: string): Promise<void> {
  await db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('token_hash', '=', tokenHash).execute();
}

/** Revokes every token of the user, except `keepHash` (the session that asked). */
export async function deleteAuthTokensForUser(db: Db, userId: string, keepHash?: string): Promise<void> {
  let q = db.deleteFrom('auth_tokens').where('user_id', '=', userId);
  if (keepHash) q = q.where('token_hash', '!=', keepHash);
  await q.execute();
}
