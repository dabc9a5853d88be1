import {
  CompleteOnboardingBody, DemoUserBody, DemoUserResponse, DetailsBody, IdParams, OnboardingResponsesBody, Profile,
  SettingsBody, SettingsResponse, SuccessBody, UpdateEmailBody, UpdateEmailResponse, WelcomeTour, WelcomeTourBody, WelcomeTourStepBody,
} from '@spyglass/protocol';
import { z } from 'zod';
import type { App } from '../../context';
import { conflict, forbidden, notFound } from '../../errors';
import { randomAlphanumeric } from '../../lib/crypto';
import { requestEmailChange } from '../../services/account.service';
import { createUser, hashPassword } from '../../services/auth.service';
import { listTours, saveTourStep } from '../../services/welcome-tour.service';
import { deleteUser, findUserById, mergeSettings, readSettings, toProfile, updateUser } from '../../repositories/users.repository';
import { upsertToursForUser } from '../../repositories/welcome-tours.repository';

const ProfileResponse = z.object({ profile: Profile });

export async function userRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/user', { schema: { response: { 200: Profile } } }, async (req) => toProfile(req.user, ctx.billing.isFreeUser(req.user)));

  app.get('/user/settings', { schema: { response: { 200: SettingsResponse } } }, async (req) => ({ settings: readSettings(req.user) }));

  app.post('/user/settings', { schema: { body: SettingsBody, response: { 200: SettingsResponse } } }, async (req) => {
    const settings = await mergeSettings(ctx.db, req.user.id, req.body.settings);
    if (settings === 'not_found') throw notFound('User not found');
    if (settings === 'contended') throw conflict('Settings are being changed elsewhere, please try again');
    return { settings };
  });

  // Rate-limited per account and IP: each answer tells whether an address has an account.
  app.post('/user/update-email', { schema: { body: UpdateEmailBody, response: { 200: UpdateEmailResponse } } }, async (req) => {
    await ctx.authRateLimiter.consumeEmailChange(req.ip, req.user.id);
    const { email, currentPassword, googleToken } = req.body;
    await requestEmailChange(ctx, req.user, email, { currentPassword, googleToken });
    return { pendingEmail: email };
  });

  app.delete('/user/:id', { schema: { params: IdParams, response: { 200: SuccessBody } } }, async (req) => {
    if (req.params.id !== req.user.id) throw forbidden('You can only delete your own account');
    // Every table that holds user data references users with ON DELETE CASCADE, so this one
    // statement removes it all atomically.
    await deleteUser(ctx.db, req.user.id);
    ctx.live.hub.credentialsChanged(req.user.id);
    // Files go after the rows: a failure here leaves orphan files, never rows pointing at nothing.
    await ctx.blobs.deleteUser(req.user.id);
    return { success: true as const };
  });

  app.post('/user/details', { schema: { body: DetailsBody, response: { 200: ProfileResponse } } }, async (req) => {
    const b = req.body;
    await updateUser(ctx.db, req.user.id, {
      first_name: b.firstName, last_name: b.lastName, company: b.company, company_size: b.companySize, role: b.role,
    });
    const user = (await findUserById(ctx.db, req.user.id))!;
    return { profile: toProfile(user, ctx.billing.isFreeUser(user)) };
  });

  app.post('/user/onboarding-responses', { schema: { body: OnboardingResponsesBody, response: { 200: SuccessBody } } }, async (req) => {
    await updateUser(ctx.db, req.user.id, {
      signup_source: req.body.signupSource, signup_usecases: JSON.stringify(req.body.signupUsecases),
    });
    return { success: true as const };
  });

  app.post('/user/complete-onboarding', { schema: { body: CompleteOnboardingBody, response: { 200: SuccessBody } } }, async (req) => {
    if (req.body.userId !== req.user.id) throw forbidden('You can only complete your own onboarding');
    await updateUser(ctx.db, req.user.id, { onboarding_completed: 1 });
    return { success: true as const };
  });

  app.get('/user/welcome-tour', { schema: { response: { 200: z.array(WelcomeTour) } } }, async (req) => listTours(ctx.db, req.user.id));

  app.post('/user/welcome-tour', { schema: { body: WelcomeTourBody, response: { 200: SuccessBody } } }, async (req) => {
    await upsertToursForUser(ctx.db, req.user.id, req.body.welcomeTour);
    ctx.tourProgress.toursChanged(req.user.id);
    return { success: true as const };
  });

  app.post('/user/welcome-tour/step', { schema: { body: WelcomeTourStepBody, response: { 200: WelcomeTour } } }, async (req) => {
    const tour = await saveTourStep(ctx.db, req.user.id, req.body.tourId, req.body.stepId, req.body.stepData);
    ctx.tourProgress.toursChanged(req.user.id);
    return tour;
  });
}

/** `POST /user/demo`: a throw-away account, only on servers started with DEMO_MODE=1. */
export async function demoUserRoutes(app: App): Promise<void> {
  const { ctx } = app;
  // nullish: the payload is optional, and Fastify hands a missing body to the validator as null.
  app.post('/user/demo', { schema: { body: DemoUserBody.nullish(), response: { 200: DemoUserResponse } } }, async (req) => {
    if (!ctx.config.demoMode) throw notFound();
    await ctx.authRateLimiter.consume(req.ip);
    const email = `demo-${randomAlphanumeric(12).toLowerCase()}@demo.spyglass.local`;
    const password = `${randomAlphanumeric(16)}!1`;
    await createUser(ctx, {
      email, passwordHash: await hashPassword(password), authProvider: 'email', emailVerified: true, isDemo: true,
      timezone: req.body?.timezone,
    });
    return { email, password };
  });
}
