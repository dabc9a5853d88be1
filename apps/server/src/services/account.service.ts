import { VERIFY_EMAIL_TTL_MS } from '@spyglass/protocol';
import type { AppContext } from '../context';
import { badRequest, forbidden, unauthorized } from '../errors';
import { randomToken, sha256 } from '../lib/crypto';
import { deleteAuthTokensForUser } from '../repositories/auth-tokens.repository';
import { consumeAddressLink, insertEmailToken, invalidateEmailTokens } from '../repositories/email-tokens.repository';
import { findUserByEmail, findUserById, updateUser, type UserRow } from '../repositories/users.repository';
import { adminFlagOf } from './admin.service';
import { EMAIL_IN_USE, verifyPassword } from './auth.service';
import { verifyGoogleIdToken } from './google-identity';

/** How recent the Google sign-in that confirms an e-mail change must be. */
const FRESH_GOOGLE_SIGN_IN_S = 10 * 60;

export const PASSWORD_REQUIRED = 'Please enter your current password to change your email';
export const WRONG_PASSWORD = 'Current password is incorrect';
export const GOOGLE_CONFIRMATION_REQUIRED = 'Please sign in with Google again to change your email';

export interface EmailChangeProof {
  currentPassword?: string;
  googleToken?: string;
}

/**
 * Asks to move the account to a new address. Whoever holds a sign-in token must still prove to be
 * the owner (the password, or a Google sign-in made just now), the old address is told, and the
 * account keeps its address until the link mailed to the new one is opened (`applyEmailChange`),
 * so a stolen token alone can neither take the address nor, through a password reset, the account.
 */
export async function requestEmailChange(ctx: AppContext, user: UserRow, email: string, proof: EmailChangeProof): Promise<void> {
  if (user.is_demo === 1) throw forbidden('Email cannot be changed on a demo account');
  await proveOwner(ctx, user, proof);
  if (email === user.email) throw badRequest('This is already your email');
  if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
  const token = randomToken();
  await ctx.db.transaction().execute(async (trx) => {
    // Only the newest request's link works.
    await invalidateEmailTokens(trx, user.id, 'change_email', ctx.now());
    await insertEmailToken(trx, user.id, 'change_email', sha256(token), VERIFY_EMAIL_TTL_MS, ctx.now(), email);
  });
  const link = `${ctx.config.publicUrl}/verify-email?token=${token}`;
  await ctx.mailer.send({
    to: email,
    subject: 'Confirm your new Spyglass e-mail address',
    text: `Someone asked to use this address for the Spyglass account ${user.email}.\n\nConfirm the change by opening this link (valid for 24 hours):\n${link}\n\nUntil then the account keeps its old address. If you did not ask for this, ignore this message.`,
  });
  await ctx.mailer.send({
    to: user.email,
    subject: 'Your Spyglass e-mail address is being changed',
    text: `Someone signed in to your Spyglass account asked to change its e-mail address to ${email}.\n\nThe change takes effect only when the link sent to that address is opened; every browser is then signed out.\n\nIf this was not you, change your password now: that signs out everyone else. The old address keeps the account until the change is confirmed.`,
  });
}

async function proveOwner(ctx: AppContext, user: UserRow, proof: EmailChangeProof): Promise<void> {
  if (user.auth_provider === 'google') {
    if (!proof.googleToken) throw badRequest(GOOGLE_CONFIRMATION_REQUIRED);
    const identity = await verifyGoogleIdToken(ctx, proof.googleToken, { maxAgeS: FRESH_GOOGLE_SIGN_IN_S });
    if (identity.email !== user.email) throw unauthorized('Please sign in with the Google account of this Spyglass account');
    return;
  }
  if (!proof.currentPassword) throw badRequest(PASSWORD_REQUIRED);
  if (!(await verifyPassword(user.password_hash, proof.currentPassword))) throw badRequest(WRONG_PASSWORD);
}

/**
 * Moves the account to the confirmed address: it becomes the verified address, every link mailed
 * before stops working and every sign-in token is revoked (a thief's included), so each browser
 * signs in again with the new address.
 */
export async function applyEmailChange(ctx: AppContext, userId: string, email: string): Promise<UserRow> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, userId, { email, email_verified: 1, is_admin: adminFlagOf(ctx, email) });
      for (const kind of ['verify', 'reset', 'change_email'] as const) await invalidateEmailTokens(trx, userId, kind, ctx.now());
      await deleteAuthTokensForUser(trx, userId);
    });
  } catch (e) {
    // Another account took the address after this change was asked for: the unique index decides.
    if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
    throw e;
  }
  ctx.live.hub.credentialsChanged(userId);
  return (await findUserById(ctx.db, userId))!;
}

export const VERIFY_FAILED = 'Email verification failed. Please try again or request a new verification email.';

/** The verification page's link: confirms the sign-up's address, or applies a confirmed e-mail change. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<UserRow> {
  const link = await consumeAddressLink(ctx.db, sha256(token), ctx.now());
  if (!link) throw badRequest(VERIFY_FAILED);
  if (link.newEmail !== null) return applyEmailChange(ctx, link.userId, link.newEmail);
  const user = await findUserById(ctx.db, link.userId);
  if (!user) throw badRequest(VERIFY_FAILED);
  await updateUser(ctx.db, link.userId, { email_verified: 1, is_admin: adminFlagOf(ctx, user.email) });
  return (await findUserById(ctx.db, link.userId))!;
}
