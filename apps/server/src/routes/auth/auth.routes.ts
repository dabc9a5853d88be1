import {
  ChangePasswordBody, EmailBody, GoogleSignInBody, MessageResponse, ResetPasswordBody, SignInBody, SignUpBody,
  SuccessBody, TokenProfileResponse, TokenResponse, VerifyEmailQuery, Profile,
} from '@spyglass/protocol';
import { z } from 'zod';
import type { App } from '../../context';
import { isDomainError } from '../../errors';
import { findUserByEmail, toProfile } from '../../repositories/users.repository';
import { deleteAuthToken } from '../../repositories/auth-tokens.repository';
import {
  changePassword, createUser, hashPassword, issueToken, resetPassword, sendResetMail, sendVerificationMail, signIn,
} from '../../services/auth.service';
import { verifyEmail } from '../../services/account.service';
import { verifyGoogleIdToken } from '../../services/google-identity';

/** Routes anyone may call; each is rate-limited per IP and per e-mail. */
export async function publicAuthRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const limit = (ip: string, email?: string) => ctx.authRateLimiter.consume(ip, email);

  app.post('/auth/signin', { schema: { body: SignInBody, response: { 200: TokenResponse } } }, async (req) => {
    const { email, password } = req.body;
    await ctx.authRateLimiter.beforeSignIn(req.ip, email);
    let token: string;
    try {
      token = await signIn(ctx, email, password);
    } catch (e) {
      if (isDomainError(e, 'unauthorized')) await ctx.authRateLimiter.signInFailed(req.ip, email);
      throw e;
    }
    await ctx.authRateLimiter.signInSucceeded(req.ip, email);
    return { token };
  });

  app.post('/auth/signup', { schema: { body: SignUpBody, response: { 200: TokenProfileResponse } } }, async (req) => {
    await limit(req.ip, req.body.email);
    const user = await createUser(ctx, {
      email: req.body.email,
      passwordHash: await hashPassword(req.body.password),
      authProvider: 'email',
      emailVerified: false,
      timezone: req.body.timezone,
      referrer: req.body.referrer,
    });
    await sendVerificationMail(ctx, user).catch((err: unknown) => req.log.error({ err }, 'verification mail failed'));
    await ctx.authRateLimiter.signInSucceeded(req.ip, user.email);
    return { token: await issueToken(ctx, user.id), profile: toProfile(user, ctx.billing.isFreeUser(user)) };
  });

  app.post('/auth/google', { schema: { body: GoogleSignInBody, response: { 200: TokenProfileResponse } } }, async (req) => {
    await limit(req.ip);
    const identity = await verifyGoogleIdToken(ctx, req.body.token);
    let user = await findUserByEmail(ctx.db, identity.email);
    if (!user) {
      try {
        user = await createUser(ctx, { email: identity.email, passwordHash: null, authProvider: 'google', emailVerified: true, timezone: req.body.timezone });
      } catch (e) {
        // A first sign-in from two tabs at once: the one that lost the race signs in to the account the other created.
        user = isDomainError(e, 'conflict') ? await findUserByEmail(ctx.db, identity.email) : undefined;
        if (!user) throw e;
      }
    }
    await ctx.authRateLimiter.signInSucceeded(req.ip, user.email);
    return { token: await issueToken(ctx, user.id), profile: toProfile(user, ctx.billing.isFreeUser(user)) };
  });

  app.get('/auth/verify-email', { schema: { querystring: VerifyEmailQuery, response: { 200: z.object({ profile: Profile }) } } }, async (req) => {
    await limit(req.ip);
    const user = await verifyEmail(ctx, req.query.token);
    return { profile: toProfile(user, ctx.billing.isFreeUser(user)) };
  });

  // These two answer the same whether or not the address exists, so they reveal no accounts.
  app.post('/auth/resend-verification', { schema: { body: EmailBody, response: { 200: MessageResponse } } }, async (req) => {
    await limit(req.ip, req.body.email);
    const user = await findUserByEmail(ctx.db, req.body.email);
    if (user && user.email_verified === 0) await sendVerificationMail(ctx, user);
    return { message: 'Verification email sent! Please check your inbox.' };
  });

  app.post('/auth/forgot-password', { schema: { body: EmailBody, response: { 200: MessageResponse } } }, async (req) => {
    await limit(req.ip, req.body.email);
    const user = await findUserByEmail(ctx.db, req.body.email);
    if (user && user.auth_provider === 'email') await sendResetMail(ctx, user);
    return { message: 'Password reset email sent! Please check your inbox.' };
  });

  app.post('/auth/reset-password', { schema: { body: ResetPasswordBody, response: { 200: MessageResponse } } }, async (req) => {
    await limit(req.ip);
    await resetPassword(ctx, req.body.token, req.body.newPassword);
    return { message: 'Password successfully reset! Please login with your new password.' };
  });
}

/** Routes of a signed-in user. */
export async function authRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/auth/change-password', { schema: { body: ChangePasswordBody, response: { 200: MessageResponse } } }, async (req) => {
    await ctx.authRateLimiter.consume(req.ip, req.user.email);
    await changePassword(ctx, req.user, req.tokenHash, req.body.currentPassword, req.body.newPassword);
    return { message: 'Password changed successfully' };
  });

  app.post('/auth/logout', { schema: { response: { 200: SuccessBody } } }, async (req) => {
    await deleteAuthToken(ctx.db, req.user.id, req.tokenHash);
    ctx.live.hub.credentialsChanged(req.user.id);
    return { success: true as const };
  });
}
