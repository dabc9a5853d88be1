import type { UserRow } from './users.repository';
import type { DatabaseHandle, Db } from '../db/database';

export async function insertAuthToken(db: Db, userId: string, tokenHash: string, now: number): Promise<void> {
  await db.insertInto('auth_tokens').values({ token_hash: tokenHash, user_id: userId, created_at: now, last_used_at: now }).execute();
}

/** A token's user, with the token's own times (its lifetimes are checked against them). */
export type TokenUserRow = UserRow & { token_created_at: number; token_last_used_at: number };

const userByTokenHash = (db: Db, tokenHash: string) => db.selectFrom('auth_tokens')
  .innerJoin('users', 'users.id', 'auth_tokens.user_id')
  .selectAll('users')
  .select(['auth_tokens.created_at as token_created_at', 'auth_tokens.last_used_at as token_last_used_at'])
  .where('auth_tokens.token_hash', '=', tokenHash);

export function findUserByTokenHash(db: Db, tokenHash: string): Promise<TokenUserRow | undefined> {
  return userByTokenHash(db, tokenHash).executeTakeFirst();
}

/** Sliding renewal: the token was used at `now`. */
export async function touchAuthToken(db: Db, tokenHash: string, now: number): Promise<void> {
  await db.updateTable('auth_tokens').set({ last_used_at: now }).where('token_hash', '=', tokenHash).execute();
}

/** Removes a token that outlived its lifetime. */
export async function deleteAuthTokenByHash(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).execute();
}

const TOKEN_CACHE_SIZE = 1000;

/**
 * The lookup behind every authenticated request (bench/suites/01-server.ts measures it).
 *
 * PostgreSQL: one query per request, so that a revoked token or a locked account takes effect on
 * the next request on every node.
 *
 * SQLite (one process owns the file): the Kysely-built statement is prepared once, and answers are
 * kept in a small cache that is dropped as soon as anything was written to the database, by this
 * connection (`total_changes()`) or by any other (`data_version`). Any logout, revocation, lock or
 * profile change therefore reaches the very next request, exactly as without the cache; the cache
 * only saves the join while nothing changes. While another request's transaction is open, the
 * shared connection would show its uncommitted writes, so the lookup then queues behind it
 * through Kysely like any other query.
 */
export function userByTokenHashFinder(database: DatabaseHandle): (tokenHash: string) => Promise<TokenUserRow | undefined> {
  const { sqlite, db } = database;
  if (!sqlite) return (tokenHash) => findUserByTokenHash(db, tokenHash);
  const lookup = sqlite.prepare<[string], TokenUserRow>(userByTokenHash(db, '').compile().sql);
  const totalChanges = sqlite.prepare<[], number>('select total_changes()').pluck();
  const dataVersion = sqlite.prepare<[], number>('pragma data_version').pluck();
  const cache = new Map<string, TokenUserRow>();
  let stamp = '';
  return async (tokenHash) => {
    if (sqlite.inTransaction) return findUserByTokenHash(db, tokenHash);
    const current = `${totalChanges.get()}:${dataVersion.get()}`;
    if (current !== stamp) {
      cache.clear();
      stamp = current;
    }
    let user = cache.get(tokenHash);
    if (!user) {
      user = lookup.get(tokenHash);
      if (!user) return undefined;
      if (cache.size >= TOKEN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(tokenHash, user);
    }
    // A copy: a handler that changes its request's user must not change the cached row.
    return { ...user };
  };
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
