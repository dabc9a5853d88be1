import argon2 from 'argon2';
import { DEFAULT_SETTINGS, RESET_PASSWORD_TTL_MS, VERIFY_EMAIL_TTL_MS } from '@spyglass/protocol';
import type { AppContext } from '../context';
import { badRequest, conflict, unauthorized } from '../errors';
import { newApiKey, newId, randomToken, sha256 } from '../lib/crypto';
import { bool } from '../db/database';
import { insertUser, findUserByEmail, findUserById, updateUser, type UserRow } from '../repositories/users.repository';
import { deleteAuthTokensForUser, insertAuthToken } from '../repositories/auth-tokens.repository';
import { consumeEmailToken, insertEmailToken, invalidateEmailTokens } from '../repositories/email-tokens.repository';
import { addSampleDevice } from './sample-device.service';

export const EMAIL_IN_USE = 'Email already in use';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_LOCKED_MESSAGE = 'Account Locked: Your account has been locked. Please contact support to unlock.';

// argon2id with the library's defaults (64 MiB, 3 passes), the OWASP-recommended profile.
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export async function issueToken(ctx: AppContext, userId: string): Promise<string> {
  const token = randomToken();
  await insertAuthToken(ctx.db, userId, sha256(token), ctx.now());
  return token;
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  authProvider: 'email' | 'google';
  emailVerified: boolean;
  timezone?: string;
  referrer?: string;
  isDemo?: boolean;
}

export async function createUser(ctx: AppContext, input: NewUser): Promise<UserRow> {
  if (await findUserByEmail(ctx.db, input.email)) throw conflict(EMAIL_IN_USE);
  const now = ctx.now();
  const id = newId();
  try {
    await insertUser(ctx.db, {
      id,
      email: input.email,
      password_hash: input.passwordHash,
      auth_provider: input.authProvider,
      email_verified: bool(input.emailVerified),
      api_key: newApiKey(ctx.config.nodeEnv),
      is_demo: bool(input.isDemo ?? false),
      settings: JSON.stringify(DEFAULT_SETTINGS),
      timezone: input.timezone ?? null,
      referrer: input.referrer ?? null,
      created_at: now,
      updated_at: now,
    });
  } catch (e) {
    // Two sign-ups racing for one address: the unique index decides.
    if (await findUserByEmail(ctx.db, input.email)) throw conflict(EMAIL_IN_USE);
    throw e;
  }
  // New accounts look at the sample until their first device connects; demo accounts always do.
  if (ctx.config.sampleDevice || input.isDemo) await addSampleDevice(ctx, id);
  return (await findUserById(ctx.db, id))!;
}

export async function sendVerificationMail(ctx: AppContext, user: UserRow): Promise<void> {
  await invalidateEmailTokens(ctx.db, user.id, 'verify', ctx.now());
  const token = randomToken();
  await insertEmailToken(ctx.db, user.id, 'verify', sha256(token), VERIFY_EMAIL_TTL_MS, ctx.now());
  const link = `${ctx.config.publicUrl}/verify-email?token=${token}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Verify your Spyglass e-mail address',
    text: `Welcome to Spyglass!\n\nConfirm your e-mail address by opening this link (valid for 24 hours):\n${link}\n\nIf you did not sign up, ignore this message.`,
  });
}

export async function sendResetMail(ctx: AppContext, user: UserRow): Promise<void> {
  await invalidateEmailTokens(ctx.db, user.id, 'reset', ctx.now());
  const token = randomToken();
  await insertEmailToken(ctx.db, user.id, 'reset', sha256(token), RESET_PASSWORD_TTL_MS, ctx.now());
  const link = `${ctx.config.publicUrl}/reset-password?token=${token}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your Spyglass password',
    text: `Someone asked to reset the password of your Spyglass account.\n\nChoose a new password here (valid for 1 hour, usable once):\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.`,
  });
}

export async function signIn(ctx: AppContext, email: string, password: string): Promise<string> {
  const user = await findUserByEmail(ctx.db, email);
  // Verify against a real hash even for unknown e-mails so timing does not reveal accounts.
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
  if (!user || !ok) throw unauthorized(INVALID_CREDENTIALS);
  return issueToken(ctx, user.id);
}

// Made on first use rather than at import: an argon2id hash costs start-up time.
let dummy: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomToken()));

export async function resetPassword(ctx: AppContext, token: string, newPassword: string): Promise<void> {
  const userId = await consumeEmailToken(ctx.db, 'reset', sha256(token), ctx.now());
  if (!userId) throw badRequest('This reset link is invalid or has expired. Please request a new one.');
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, userId, { password_hash: passwordHash });
    await deleteAuthTokensForUser(trx, userId);
  });
  ctx.live.hub.credentialsChanged(userId);
}

export async function changePassword(ctx: AppContext, user: UserRow, tokenHash: string, current: string, next: string): Promise<void> {
  if (user.auth_provider !== 'email') throw badRequest('Password change is only available for email accounts');
  if (!(await verifyPassword(user.password_hash, current))) throw badRequest('Current password is incorrect');
  const passwordHash = await hashPassword(next);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { password_hash: passwordHash });
    await deleteAuthTokensForUser(trx, user.id, tokenHash);
  });
  ctx.live.hub.credentialsChanged(user.id);
}
