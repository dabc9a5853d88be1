import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, WELCOME_TOURS } from '@spyglass/protocol';
import { apiClient, describeApi, GOOD_PASSWORD, signUp, startTestServer, uniqueEmail, useTestServer } from './helpers';
import { connectDevice, items } from './live-clients';
import { ownedTables, rowsOfUser } from './support/user-rows';

const DETAILS = { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', companySize: '2-5', role: 'cto' };

describeApi('user: profile, settings, onboarding, welcome tour, billing, analytics', () => {
  const server = useTestServer();

  describe('profile and settings', () => {
    it('answers the profile with default settings', async () => {
      const { api, email } = await signUp(server.url);
      const res = await api.get('/v1/user');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ email, settings: DEFAULT_SETTINGS, signupUsecases: [], firstName: null, isDemoUser: false });
      expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
      const settings = await api.get('/v1/user/settings');
      expect(settings.body).toEqual({ settings: DEFAULT_SETTINGS });
    });

    it('saves partial settings and keeps the rest', async () => {
      const { api } = await signUp(server.url);
      const first = await api.post('/v1/user/settings', { settings: { theme: 'dark' } });
      expect(first.status).toBe(200);
      expect(first.body.settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark' });
      const second = await api.post('/v1/user/settings', { settings: { leftSidebarWidth: 300, rightSidebarWidth: 400 } });
      expect(second.body.settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', leftSidebarWidth: 300, rightSidebarWidth: 400 });
      expect((await api.get('/v1/user/settings')).body.settings).toEqual(second.body.settings);
      expect((await api.get('/v1/user')).body.settings).toEqual(second.body.settings);
    });

    it('lands two concurrent partial saves', async () => {
      const { api } = await signUp(server.url);
      const saves = [{ showSidebar: false }, { wantsUsageReport: false }, { theme: 'dark' }, { leftSidebarWidth: 300 }, { rightSidebarWidth: 250 }];
      const answers = await Promise.all(saves.map((settings) => api.post('/v1/user/settings', { settings })));
      expect(answers.map((a) => a.status)).toEqual(saves.map(() => 200));
      expect((await api.get('/v1/user/settings')).body.settings).toMatchObject(Object.assign({}, ...saves));
    });

    it('refuses settings outside the spec and stores nothing of the request', async () => {
      const { api } = await signUp(server.url);
      for (const settings of [
        { leftSidebarWidth: 149 }, { leftSidebarWidth: 401 }, { rightSidebarWidth: 199 }, { theme: 'blue' },
        { theme: 'dark', unknownSetting: 1 }, { showSidebar: 'yes' },
      ]) {
        const res = await api.post('/v1/user/settings', { settings });
        expect(res.status, JSON.stringify(settings)).toBe(400);
      }
      expect((await api.get('/v1/user/settings')).body.settings).toEqual(DEFAULT_SETTINGS);
    });
  });

  describe('update e-mail', () => {
    // The link that applies a change is followed in email-links.test.ts and account-security.test.ts.
    it('asks for the current password and keeps the address until the new one is confirmed', async () => {
      const { api, email: old } = await signUp(server.url);
      const email = uniqueEmail('new-address');
      expect((await api.post('/v1/user/update-email', { email })).status).toBe(400);
      const res = await api.post('/v1/user/update-email', { email: email.toUpperCase(), currentPassword: GOOD_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pendingEmail: email });
      expect((await api.get('/v1/user')).body).toMatchObject({ email: old });
      expect((await apiClient(server.url).post('/v1/auth/signin', { email: old, password: GOOD_PASSWORD })).status).toBe(200);
    });

    it("answers 400 'Email already in use' for a taken address and an invalid address", async () => {
      const { api, email } = await signUp(server.url);
      const other = await signUp(server.url);
      const taken = await api.post('/v1/user/update-email', { email: other.email, currentPassword: GOOD_PASSWORD });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ error: 'Email already in use' });
      const invalid = await api.post('/v1/user/update-email', { email: 'nope', currentPassword: GOOD_PASSWORD });
      expect(invalid.status).toBe(400);
      expect((await api.get('/v1/user')).body.email).toBe(email);
    });
  });

  describe('onboarding', () => {
    it('saves details, onboarding responses and completion', async () => {
      const { api, profile } = await signUp(server.url);
      const details = await api.post('/v1/user/details', DETAILS);
      expect(details.status).toBe(200);
      expect(details.body.profile).toMatchObject(DETAILS);

      const responses = await api.post('/v1/user/onboarding-responses', { signupSource: 'github', signupUsecases: ['remote_logs', 'debugging'] });
      expect(responses.status).toBe(200);
      expect(responses.body).toEqual({ success: true });

      const done = await api.post('/v1/user/complete-onboarding', { userId: profile.id });
      expect(done.body).toEqual({ success: true });
      expect((await api.get('/v1/user')).body).toMatchObject({
        ...DETAILS, signupSource: 'github', signupUsecases: ['remote_logs', 'debugging'], onboardingCompleted: true,
      });
    });

    it.each([
      ['firstName', { firstName: '  ' }, 'First name is required'],
      ['lastName', { lastName: '' }, 'Last name is required'],
      ['company', { company: '' }, 'Company is required'],
      ['companySize', { companySize: '3' }, 'Company size is required'],
      ['role', { role: 'wizard' }, 'Role is required'],
    ])('refuses details without %s with the spec message', async (_field, patch, message) => {
      const { api } = await signUp(server.url);
      const res = await api.post('/v1/user/details', { ...DETAILS, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect((await api.get('/v1/user')).body.firstName).toBeNull();
    });

    it('names every missing detail', async () => {
      const { api } = await signUp(server.url);
      const res = await api.post('/v1/user/details', {});
      expect(res.status).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual([
        'body.company', 'body.companySize', 'body.firstName', 'body.lastName', 'body.role',
      ]);
      expect(res.body.error.split('\n')).toHaveLength(5);
    });

    it('needs a source and a use case', async () => {
      const { api } = await signUp(server.url);
      const source = await api.post('/v1/user/onboarding-responses', { signupUsecases: ['other'] });
      expect(source.body.error).toBe('Please select a source');
      const usecase = await api.post('/v1/user/onboarding-responses', { signupSource: 'x', signupUsecases: [] });
      expect(usecase.body.error).toBe('Please select a use case');
      const unknown = await api.post('/v1/user/onboarding-responses', { signupSource: 'x', signupUsecases: ['mining'] });
      expect(unknown.status).toBe(400);
    });
  });

  describe('welcome tour', () => {
    it('answers both tours with pending steps until progress is saved', async () => {
      const { api } = await signUp(server.url);
      const res = await api.get('/v1/user/welcome-tour');
      expect(res.status).toBe(200);
      expect(res.body.map((t: { id: string }) => t.id)).toEqual(Object.keys(WELCOME_TOURS));
      expect(res.body[0].steps.map((s: { id: string }) => s.id)).toEqual(WELCOME_TOURS.BASIC_TUTORIAL);
      expect(res.body[1].steps).toHaveLength(5);
      expect(res.body.flatMap((t: { steps: { status: string }[] }) => t.steps.map((s) => s.status))).toEqual(Array(9).fill('pending'));
    });

    it('stores a step toggle and a whole tour', async () => {
      const { api } = await signUp(server.url);
      const completedAt = '2026-01-02T03:04:05.000Z';
      const step = await api.post('/v1/user/welcome-tour/step', {
        tourId: 'BASIC_TUTORIAL', stepId: 'Take screenshot', stepData: { id: 'Take screenshot', status: 'completed', completedAt },
      });
      expect(step.status).toBe(200);
      expect(step.body.steps[1]).toEqual({ id: 'Take screenshot', status: 'completed', completedAt });

      const mocking = { id: 'MOCKING_TUTORIAL', steps: WELCOME_TOURS.MOCKING_TUTORIAL.map((id) => ({ id, status: 'completed', completedAt })) };
      expect((await api.post('/v1/user/welcome-tour', { welcomeTour: [mocking] })).body).toEqual({ success: true });

      const tours = (await api.get('/v1/user/welcome-tour')).body;
      expect(tours[0].steps[1].status).toBe('completed');
      expect(tours[0].steps[0].status).toBe('pending');
      expect(tours[1]).toEqual(mocking);

      // Toggling back to pending.
      const back = await api.post('/v1/user/welcome-tour/step', {
        tourId: 'BASIC_TUTORIAL', stepId: 'Take screenshot', stepData: { id: 'Take screenshot', status: 'pending', completedAt: null },
      });
      expect(back.body.steps[1].status).toBe('pending');
    });

    it('refuses unknown tours and steps', async () => {
      const { api } = await signUp(server.url);
      const tour = await api.post('/v1/user/welcome-tour/step', { tourId: 'NOPE', stepId: 'x', stepData: { id: 'x', status: 'completed' } });
      expect(tour.status).toBe(400);
      const step = await api.post('/v1/user/welcome-tour/step', {
        tourId: 'BASIC_TUTORIAL', stepId: 'Fly', stepData: { id: 'Fly', status: 'completed' },
      });
      expect(step.status).toBe(404);
      const mismatch = await api.post('/v1/user/welcome-tour/step', {
        tourId: 'BASIC_TUTORIAL', stepId: 'Send first Log', stepData: { id: 'Filter Requests', status: 'completed' },
      });
      expect(mismatch.status).toBe(400);
    });
  });

  describe('billing and analytics', () => {
    it('answers the self-hosted free plan', async () => {
      const { api } = await signUp(server.url);
      const res = await api.get('/v1/billing/subscription');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ plan: 'free', status: 'active', isFreeUser: true, trafficLimit: null });
    });

    it('stores tracked events for the account', async () => {
      const { api, profile } = await signUp(server.url);
      expect((await api.post('/v1/analytics/track', { eventType: 'api_key_copied' })).body).toEqual({ success: true });
      expect((await api.post('/v1/analytics/track', {
        eventType: 'code_snippet_copied', eventData: { platform: 'ios', language: 'swift' },
      })).status).toBe(200);
      const rows = await server.app.ctx.db.selectFrom('analytics_events').select(['event_type', 'event_data'])
        .where('user_id', '=', profile.id).orderBy('created_at').execute();
      expect(rows.map((r) => r.event_type).sort()).toEqual(['api_key_copied', 'code_snippet_copied']);
      expect(rows.map((r) => JSON.parse(r.event_data))).toContainEqual({ platform: 'ios', language: 'swift' });
      expect((await api.post('/v1/analytics/track', { eventType: 'page_view' })).status).toBe(400);
    });
  });

  describe('account deletion', () => {
    it('removes every row of the user in every table and revokes its tokens', async () => {
      const { api, profile, email } = await signUp(server.url);
      const keep = await signUp(server.url);
      const second = await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD });
      await api.post('/v1/user/settings', { settings: { theme: 'light' } });
      await api.post('/v1/user/welcome-tour/step', {
        tourId: 'BASIC_TUTORIAL', stepId: 'Send first Log', stepData: { id: 'Send first Log', status: 'completed' },
      });
      await api.post('/v1/analytics/track', { eventType: 'need_help' });
      await api.post('/v1/auth/forgot-password', { email });
      const device = await connectDevice(server.url, profile.apiKey);
      await device.sendItems([items.network(), items.log()]);
      await device.close();
      const { db } = server.app.ctx;
      const before = await rowsOfUser(db, profile.id);
      expect(Object.keys(before).sort()).toEqual(expect.arrayContaining(['analytics_events', 'auth_tokens', 'devices', 'email_tokens', 'items', 'users', 'welcome_tours']));
      expect(await ownedTables(db)).toEqual(expect.arrayContaining(Object.keys(before)));

      // As the web client calls it: JSON content type, no body.
      const res = await api.call('DELETE', `/v1/user/${profile.id}`, undefined, { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await rowsOfUser(db, profile.id)).toEqual({});
      expect((await api.get('/v1/user')).status).toBe(401);
      expect((await apiClient(server.url, second.body.token).get('/v1/user')).status).toBe(401);
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD })).status).toBe(401);
      // The other account is untouched, and the address is free again.
      expect((await keep.api.get('/v1/user')).status).toBe(200);
      expect(Object.keys(await rowsOfUser(db, keep.profile.id))).toContain('users');
      expect((await apiClient(server.url).post('/v1/auth/signup', { email, password: GOOD_PASSWORD })).status).toBe(200);
    });
  });

  describe('isolation between accounts', () => {
    it("another user's token can neither read nor change this user's data", async () => {
      const alice = await signUp(server.url);
      const mallory = await signUp(server.url);
      await alice.api.post('/v1/user/settings', { settings: { theme: 'dark' } });
      const aliceBefore = (await alice.api.get('/v1/user')).body;

      expect((await mallory.api.get('/v1/user')).body.id).toBe(mallory.profile.id);
      expect((await mallory.api.get('/v1/user/settings')).body.settings.theme).toBe('default');
      const del = await mallory.api.delete(`/v1/user/${alice.profile.id}`);
      expect(del.status).toBe(403);
      const complete = await mallory.api.post('/v1/user/complete-onboarding', { userId: alice.profile.id });
      expect(complete.status).toBe(403);
      await mallory.api.post('/v1/user/settings', { settings: { theme: 'light' } });
      await mallory.api.post('/v1/user/details', DETAILS);

      expect((await alice.api.get('/v1/user')).body).toEqual(aliceBefore);
      expect((await mallory.api.get('/v1/user')).body.settings.theme).toBe('light');
    });
  });
});

describeApi('demo user', () => {
  it('is not found without DEMO_MODE', async () => {
    const server = await startTestServer({ config: { demoMode: false } });
    try {
      const res = await apiClient(server.url).post('/v1/user/demo', { timezone: 'UTC' });
      expect(res.status).toBe(404);
      expect((await apiClient(server.url).get('/v1/config')).body.demoMode).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('creates a verified demo account with DEMO_MODE=1 whose credentials sign in', async () => {
    const server = await startTestServer({ config: { demoMode: true } });
    try {
      const res = await apiClient(server.url).post('/v1/user/demo', { timezone: 'Asia/Tokyo' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email: expect.stringMatching(/@/), password: expect.any(String) });
      const signIn = await apiClient(server.url).post('/v1/auth/signin', res.body);
      expect(signIn.status).toBe(200);
      const profile = (await apiClient(server.url, signIn.body.token).get('/v1/user')).body;
      expect(profile).toMatchObject({ email: res.body.email, isDemoUser: true, emailVerified: true, timezone: 'Asia/Tokyo' });
      // Also without a body, as the client may call it.
      expect((await apiClient(server.url).call('POST', '/v1/user/demo', undefined, { 'content-type': 'application/json' })).status).toBe(200);
      expect((await apiClient(server.url).get('/v1/config')).body.demoMode).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describeApi('API keys and public config', () => {
  it('uses the sg_dev_ prefix when NODE_ENV=development', async () => {
    const server = await startTestServer({ config: { nodeEnv: 'development' } });
    try {
      const { profile } = await signUp(server.url);
      expect(profile.apiKey).toMatch(/^sg_dev_[A-Za-z0-9]{30}$/);
    } finally {
      await server.close();
    }
  });

  it('answers GET /v1/config without a token', async () => {
    const server = await startTestServer({ config: {
      bookDemoUrl: 'https://cal.example.com/spyglass', googleClientId: null, serverVersion: '9.8.7', appStoreUrl: 'https://apps.example.com/spyglass', googlePlayUrl: null,
    } });
    try {
      const res = await apiClient(server.url).get('/v1/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        googleClientId: null, bookDemoUrl: 'https://cal.example.com/spyglass', demoMode: false, version: '9.8.7', shareUrl: expect.any(String),
        appStoreUrl: 'https://apps.example.com/spyglass', googlePlayUrl: null,
      });
    } finally {
      await server.close();
    }
  });
});
