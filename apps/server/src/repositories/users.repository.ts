import type { Insertable, Selectable, Updateable } from 'kysely';
import { DEFAULT_SETTINGS, PartialSettings, type Settings, type Profile } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { isTrue } from '../db/database';
import type { UsersTable } from '../db/schema';
import { parseJson } from '../lib/json';

export type UserRow = Selectable<UsersTable>;

export function insertUser(db: Db, row: Insertable<UsersTable>): Promise<unknown> {
  return db.insertInto('users').values(row).execute();
}

export function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByApiKey(db: Db, apiKey: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('api_key', '=', apiKey).executeTakeFirst();
}

export async function updateUser(db: Db, userId: string, patch: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set({ ...patch, updated_at: Date.now() }).where('id', '=', userId).execute();
}

/** Deletes the account; its other rows cascade, its items are deleted after its devices (see deleteDevice). */
export function deleteUser(db: Db, userId: string): Promise<unknown> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    await trx.deleteFrom('items').where('user_id', '=', userId).execute();
  });
}

/**
 * Merges a partial settings update into the stored ones as a compare-and-swap on the stored text,
 * retried on conflict, so that two tabs saving different settings at once both land on either
 * engine without dialect-specific locking.
 */
export async function mergeSettings(db: Db, userId: string, patch: Partial<Settings>): Promise<Settings | 'not_found' | 'contended'> {
  for (let attempt = 0; attempt < MAX_SETTINGS_ATTEMPTS; attempt++) {
    const row = await db.selectFrom('users').select('settings').where('id', '=', userId).executeTakeFirst();
    if (!row) return 'not_found';
    const settings = { ...readSettings(row), ...patch };
    const result = await db.updateTable('users')
      .set({ settings: JSON.stringify(settings), updated_at: Date.now() })
      .where('id', '=', userId)
      .where('settings', '=', row.settings)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return settings;
  }
  return 'contended';
}

const MAX_SETTINGS_ATTEMPTS = 20;

/** Stored settings are merged over the defaults so that new settings appear for old accounts. */
export function readSettings(row: Pick<UserRow, 'settings'>): Settings {
  const parsed = PartialSettings.safeParse(parseJson(row.settings));
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}


/** `isFreeUser` depends on the server's billing mode (BillingService.isFreeUser). */
export function toProfile(row: UserRow, isFreeUser: boolean): Profile {
  const usecases = parseJson(row.signup_usecases);
  return {
    id: row.id,
    email: row.email,
    emailVerified: isTrue(row.email_verified),
    apiKey: row.api_key,
    authProvider: row.auth_provider,
    isAdmin: isTrue(row.is_admin),
    isFreeUser,
    isLockedUser: isTrue(row.is_locked),
    isDemoUser: isTrue(row.is_demo),
    shouldBlockRequests: isTrue(row.should_block_requests),
    onboardingCompleted: isTrue(row.onboarding_completed),
    loadBalancerGroup: row.load_balancer_group,
    featureFlags: { MOCK_APIS: true, USER_DEFAULTS: true },
    settings: readSettings(row),
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    companySize: row.company_size,
    role: row.role,
    signupSource: row.signup_source,
    signupUsecases: Array.isArray(usecases) ? usecases.filter((u): u is string => typeof u === 'string') : [],
    timezone: row.timezone,
    referrer: row.referrer,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
