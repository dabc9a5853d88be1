import type { AppContext } from '../context';
import { badRequest, forbidden } from '../errors';
import { invalidateEmailTokens } from '../repositories/email-tokens.repository';
import { findUserByEmail, findUserById, updateUser, type UserRow } from '../repositories/users.repository';
import { EMAIL_IN_USE, sendVerificationMail } from './auth.service';

/**
 * Moves the account to a new address, unverified until the mail sent there is followed. Links
 * mailed to the old address stop working, so they can neither verify the new one nor reset the
 * account.
 */
export async function changeEmail(ctx: AppContext, user: UserRow, email: string, log: { error(obj: object, msg: string): void }): Promise<UserRow> {
  if (email === user.email) return user;
  if (user.is_demo === 1) throw forbidden('Email cannot be changed on a demo account');
  if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { email, email_verified: 0 });
      await invalidateEmailTokens(trx, user.id, 'verify', ctx.now());
      await invalidateEmailTokens(trx, user.id, 'reset', ctx.now());
    });
  } catch (e) {
    // Two accounts racing for one address: the unique index decides.
    if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
    throw e;
  }
  const changed = (await findUserById(ctx.db, user.id))!;
  await sendVerificationMail(ctx, changed).catch((err: unknown) => log.error({ err }, 'verification mail failed'));
  return changed;
}
