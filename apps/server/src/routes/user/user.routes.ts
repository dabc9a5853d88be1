import {
  CompleteOnboardingBody, DemoUserBody, DemoUserResponse, DetailsBody, IdParams, OnboardingResponsesBody, Profile,
  SettingsBody, SettingsResponse, SuccessBody, UpdateEmailBody, WelcomeTour, WelcomeTourBody, WelcomeTourStepBody,
  TOUR_IDS, WELCOME_TOURS, type TourStep,
} from '@spyglass/protocol';
import { z } from 'zod';
import { BlobStore } from '../../blobs/blob-store';
import type { App } from '../../context';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { randomAlphanumeric } from '../../lib/crypto';
import { createUser, EMAIL_IN_USE, hashPassword, sendVerificationMail } from '../../services/auth.service';
import { invalidateEmailTokens } from '../../repositories/email-tokens.repository';
import { deleteUser, findUserByEmail, findUserById, mergeSettings, readSettings, toProfile, updateUser } from '../../repositories/users.repository';
import { findTourForUser, findToursForUser, upsertTourForUser } from '../../repositories/welcome-tours.repository';

const ProfileResponse = z.object({ profile: Profile });

function defaultTour(id: keyof typeof WELCOME_TOURS): WelcomeTour {
  return { id, steps: WELCOME_TOURS[id].map((name) => ({ id: name, status: 'pending' as const, completedAt: null })) };
}

export async function userRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const blobs = new BlobStore(ctx.config.dataDir);

  app.get('/user', { schema: { response: { 200: Profile } } }, async (req) => toProfile(req.user));

  app.get('/user/settings', { schema: { response: { 200: SettingsResponse } } }, async (req) => ({ settings: readSettings(req.user) }));

  app.post('/user/settings', { schema: { body: SettingsBody, response: { 200: SettingsResponse } } }, async (req) => {
    const settings = await mergeSettings(ctx.db, req.user.id, req.body.settings);
    if (settings === 'not_found') throw notFound('User not found');
    if (settings === 'contended') throw conflict('Settings are being changed elsewhere, please try again');
    return { settings };
  });

  app.post('/user/update-email', { schema: { body: UpdateEmailBody, response: { 200: ProfileResponse } } }, async (req) => {
    const email = req.body.email;
    if (email === req.user.email) return { profile: toProfile(req.user) };
    if (req.user.is_demo === 1) throw forbidden('Email cannot be changed on a demo account');
    if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await updateUser(trx, req.user.id, { email, email_verified: 0 });
        // Links mailed to the old address must not verify the new one or reset the account.
        await invalidateEmailTokens(trx, req.user.id, 'verify', ctx.now());
        await invalidateEmailTokens(trx, req.user.id, 'reset', ctx.now());
      });
    } catch (e) {
      // Two accounts racing for one address: the unique index decides.
      if (await findUserByEmail(ctx.db, email)) throw badRequest(EMAIL_IN_USE);
      throw e;
    }
    const user = (await findUserById(ctx.db, req.user.id))!;
    await sendVerificationMail(ctx, user).catch((err: unknown) => req.log.error({ err }, 'verification mail failed'));
    return { profile: toProfile(user) };
  });

  app.delete('/user/:id', { schema: { params: IdParams, response: { 200: SuccessBody } } }, async (req) => {
    if (req.params.id !== req.user.id) throw forbidden('You can only delete your own account');
    // Every table that holds user data references users with ON DELETE CASCADE, so this one
    // statement removes it all atomically.
    await deleteUser(ctx.db, req.user.id);
    // Files go after the rows: a failure here leaves orphan files, never rows pointing at nothing.
    await blobs.deleteUser(req.user.id);
    return { success: true as const };
  });

  app.post('/user/details', { schema: { body: DetailsBody, response: { 200: ProfileResponse } } }, async (req) => {
    const b = req.body;
    await updateUser(ctx.db, req.user.id, {
      first_name: b.firstName, last_name: b.lastName, company: b.company, company_size: b.companySize, role: b.role,
    });
    return { profile: toProfile((await findUserById(ctx.db, req.user.id))!) };
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

  app.get('/user/welcome-tour', { schema: { response: { 200: z.array(WelcomeTour) } } }, async (req) => {
    const rows = new Map((await findToursForUser(ctx.db, req.user.id)).map((r) => [r.tour_id, r.steps]));
    return TOUR_IDS.map((id) => {
      const stored = rows.get(id);
      return stored ? { id, steps: JSON.parse(stored) as TourStep[] } : defaultTour(id);
    });
  });

  app.post('/user/welcome-tour', { schema: { body: WelcomeTourBody, response: { 200: SuccessBody } } }, async (req) => {
    await ctx.db.transaction().execute(async (trx) => {
      for (const tour of req.body.welcomeTour) await upsertTourForUser(trx, req.user.id, tour.id, tour.steps);
    });
    return { success: true as const };
  });

  app.post('/user/welcome-tour/step', { schema: { body: WelcomeTourStepBody, response: { 200: WelcomeTour } } }, async (req) => {
    const { tourId, stepId, stepData } = req.body;
    if (stepData.id !== stepId) throw badRequest('stepData.id must equal stepId');
    const stored = await findTourForUser(ctx.db, req.user.id, tourId);
    const tour = stored ? { id: tourId, steps: JSON.parse(stored.steps) as TourStep[] } : defaultTour(tourId);
    const index = tour.steps.findIndex((s) => s.id === stepId);
    if (index < 0) throw notFound(`Unknown step "${stepId}" in ${tourId}`);
    tour.steps[index] = stepData;
    await upsertTourForUser(ctx.db, req.user.id, tourId, tour.steps);
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
