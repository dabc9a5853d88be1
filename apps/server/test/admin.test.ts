import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { AdminUsersResponse, TRIAL_MS } from '@spyglass/protocol';
import type { TestServer } from './helpers';
import { apiClient, describeApi, engine, signUp, startTestServer } from './helpers';
import { findUserByEmail, updateUser } from '../src/repositories/users.repository';
import { applyAdminEmails } from '../src/services/admin.service';
import { closeOf, connectViewer } from './live-clients';

const DAY = 24 * 60 * 60 * 1000;
const ADMIN_EMAIL = `admin-${process.pid}@staff.acme.io`;
// Hosted billing (a payment provider configured) so that plans and the trial count; no call reaches it.
const HOSTED = { secretKey: 'sk_test_admin', webhookSecret: null, apiUrl: 'http://127.0.0.1:9' };

describeApi('admin API', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let user: Awaited<ReturnType<typeof signUp>>;
  const run = `${process.pid}${Date.now().toString(36)}`;
  const emails = {
    oldest: `oldest-${run}@acme.io`, team: `team-${run}@acme.io`, pro: `pro-${run}@beta.io`, enterprise: `ent-${run}@acme.io`,
    canceled: `canceled-${run}@acme.io`, testDomain: `someone-${run}@example.com`, marker: `qa+test-${run}@acme.io`,
  };
  let demoEmail: string;
  /** Moves the server's clock past the KPI totals' cache. */
  let clockOffset = 0;

  beforeAll(async () => {
    server = await startTestServer({ now: () => Date.now() + clockOffset, config: { demoMode: true, stripe: HOSTED, admin: { emails: [ADMIN_EMAIL], testEmailDomains: ['example.com'], testEmailMarker: '+test' } } });
    const { db } = server.app.ctx;
    admin = await signUp(server.url, ADMIN_EMAIL);
    const adminId = admin.profile.id as string;
    await updateUser(db, adminId, { email_verified: 1 });
    // What a start-up does (tested with servers started later below).
    await applyAdminEmails(server.app.ctx);
    user = await signUp(server.url, `plain-${run}@acme.io`);
    const now = Date.now();
    const created: Record<string, number> = {};
    for (const [key, email] of Object.entries(emails)) {
      const { profile } = await signUp(server.url, email);
      created[key] = profile.id;
    }
    const demo = await apiClient(server.url).post('/v1/user/demo', {});
    demoEmail = demo.body.email;
    // Ages: 'oldest' 400 days, plans 30 days, the rest stays in its trial.
    await updateUser(db, created.oldest as unknown as string, { created_at: now - 400 * DAY });
    const plans = [['team', 'team', 'active', 'monthly'], ['pro', 'pro', 'active', 'yearly'], ['enterprise', 'enterprise', 'active', 'yearly'], ['canceled', 'team', 'canceled', 'monthly']] as const;
    for (const [key, plan, status, cycle] of plans) {
      const userId = created[key] as unknown as string;
      await updateUser(db, userId, { created_at: now - 30 * DAY });
      await db.insertInto('subscriptions').values({
        user_id: userId, plan, status, billing_cycle: cycle, period_start: now - 10 * DAY, period_end: now + 20 * DAY, trial_ends_at: null,
        canceled_at: status === 'canceled' ? now - DAY : null, cancel_reason: null, stripe_customer_id: `cus_${key}_${run}`, stripe_subscription_id: null,
        created_at: now, updated_at: now,
      }).execute();
    }
    const teamId = created.team as unknown as string;
    // Traffic before the period (not counted) and in it.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    await db.insertInto('traffic_usage').values([
      { user_id: teamId, day: day(now - 20 * DAY), bytes: 999_000_000, items: 999 },
      { user_id: teamId, day: day(now - 2 * DAY), bytes: 4_500_000_000, items: 1200 },
      { user_id: teamId, day: day(now), bytes: 500_000_000, items: 34 },
    ]).execute();
    for (const [i, deviceId] of ['phone-a', 'phone-b'].entries()) {
      await db.insertInto('devices').values({
        id: deviceId, user_id: teamId, platform: 'ios', info: JSON.stringify({ platform: 'ios', name: `Phone ${i}` }), name_override: null,
        group_override: null, feature_toggles: '{}', last_seen: now - i * DAY, created_at: now, updated_at: now,
      }).execute();
    }
  });
  afterAll(() => server?.close());

  const list = async (query = '') => {
    const res = await admin.api.get(`/v1/admin/users${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return AdminUsersResponse.parse(res.body);
  };

  it('answers 403 to a non-admin and 401 without a token on every admin route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/v1/admin/users'], ['GET', '/v1/admin/clients'], ['PATCH', `/v1/admin/users/${user.profile.id}`, { isLockedUser: true }],
    ];
    for (const [method, path, body] of routes) {
      const res = await user.api.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await apiClient(server.url).call(method, path, body)).status, `${method} ${path} without a token`).toBe(401);
      expect((await admin.api.call(method, path, body)).status, `${method} ${path} as admin`).toBe(200);
    }
    await admin.api.call('PATCH', `/v1/admin/users/${user.profile.id}`, { isLockedUser: false });
    expect((await user.api.get('/v1/user')).body.isLockedUser).toBe(false);
  });

  it('makes admins of the verified accounts ADMIN_EMAILS names, and no user call sets the flag', async () => {
    expect((await admin.api.get('/v1/user')).body.isAdmin).toBe(true);
    expect((await user.api.get('/v1/user')).body.isAdmin).toBe(false);
    expect((await user.api.post('/v1/user/details', { firstName: 'A', lastName: 'B', company: 'C', companySize: '1', role: 'cto', isAdmin: true })).status).toBe(400);
    expect((await user.api.post('/v1/user/settings', { settings: { isAdmin: true } })).status).toBe(400);
    expect((await user.api.get('/v1/user')).body.isAdmin).toBe(false);

    // An unverified account with a listed address is no admin; a server started later promotes it once verified.
    const pending = await signUp(server.url, `later-${run}@staff.acme.io`);
    const { db } = server.app.ctx;
    const storage = engine === 'postgres'
      ? { database: { pgSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s } }
      : {};
    const second = await startTestServer({ ...storage, config: { dataDir: server.app.ctx.config.dataDir, admin: { emails: [ADMIN_EMAIL, pending.email], testEmailDomains: [], testEmailMarker: null } } });
    try {
      expect((await pending.api.get('/v1/user')).body.isAdmin).toBe(false);
      expect((await apiClient(second.url, pending.token).get('/v1/admin/users')).status).toBe(403);
    } finally {
      await second.app.close();
    }
    await updateUser(db, pending.profile.id, { email_verified: 1 });
    const third = await startTestServer({ ...storage, config: { dataDir: server.app.ctx.config.dataDir, admin: { emails: [ADMIN_EMAIL, pending.email], testEmailDomains: [], testEmailMarker: null } } });
    try {
      expect((await apiClient(third.url, pending.token).get('/v1/user')).body.isAdmin).toBe(true);
      expect((await apiClient(third.url, pending.token).get('/v1/admin/users')).status).toBe(200);
    } finally {
      await third.app.close();
    }
    // Dropped from the list: no admin at the next start.
    const fourth = await startTestServer({ ...storage, config: { dataDir: server.app.ctx.config.dataDir, admin: { emails: [ADMIN_EMAIL], testEmailDomains: [], testEmailMarker: null } } });
    try {
      expect((await apiClient(fourth.url, pending.token).get('/v1/admin/users')).status).toBe(403);
    } finally {
      await fourth.app.close();
    }
    await server.app.ctx.db.updateTable('users').set({ is_admin: 0 }).where('email', '=', pending.email).execute();
  });

  it('lists accounts newest first, leaving out demo users, test domains and the test marker by default', async () => {
    const page = await list();
    const shown = page.users.map((u) => u.email);
    expect(shown).not.toContain(demoEmail);
    expect(shown).not.toContain(emails.testDomain);
    expect(shown).not.toContain(emails.marker);
    expect(shown).toContain(emails.team);
    const created = page.users.map((u) => Date.parse(u.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(shown.at(-1)).toBe(emails.oldest);
    expect(page.total).toBe(page.users.length);

    const withDemo = await list('?hideDemoUsers=false');
    expect(withDemo.users.find((u) => u.email === demoEmail)?.isDemoUser).toBe(true);
    const withTests = await list('?includeTestUsers=true');
    expect(withTests.users.filter((u) => u.isTestUser).map((u) => u.email).sort()).toEqual([emails.marker, emails.testDomain].sort());
    expect(withTests.total).toBe(page.total + 2);
  });

  it('searches, sorts and pages on the server', async () => {
    const found = await list(`?search=${encodeURIComponent(`-${run}@acme`)}`);
    expect(found.users.map((u) => u.email).sort()).toEqual([emails.canceled, emails.enterprise, emails.oldest, emails.team, `plain-${run}@acme.io`].sort());
    expect(found.total).toBe(5);
    // LIKE wildcards in the search are literal.
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?search=_')).total).toBe(0);

    const byEmail = await list('?sort=email&order=asc');
    const sorted = byEmail.users.map((u) => u.email);
    expect(sorted).toEqual([...sorted].sort());

    const byTraffic = await list('?sort=trafficUsed&order=desc');
    expect(byTraffic.users[0]!.email).toBe(emails.team);
    const byDevices = await list('?sort=devices&order=desc');
    expect(byDevices.users[0]).toMatchObject({ email: emails.team, devicesCount: 2 });
    const byCanceled = await list('?sort=canceledAt&order=asc');
    expect(byCanceled.users[0]!.email).toBe(emails.canceled);
    const byPercentage = await list('?sort=percentageUsed&order=desc');
    expect(byPercentage.users[0]!.email).toBe(emails.team);

    const first = await list('?limit=3');
    const second = await list('?limit=3&offset=3');
    const all = await list();
    expect([...first.users, ...second.users].map((u) => u.id)).toEqual(all.users.slice(0, 6).map((u) => u.id));
    expect(first.total).toBe(all.total);
    expect((await admin.api.get('/v1/admin/users?limit=0')).status).toBe(400);
    expect((await admin.api.get('/v1/admin/users?sort=password')).status).toBe(400);
  });

  it('answers the admin row with devices, latest request and the subscription fields', async () => {
    const { users } = await list(`?search=${encodeURIComponent(emails.team)}`);
    const row = users[0]!;
    expect(row).toMatchObject({
      email: emails.team, isDemoUser: false, isTestUser: false, isLockedUser: false, isFreeUser: false, devicesCount: 2,
      subscription: { plan: 'team', status: 'active', billingCycle: 'monthly', canceledAt: null, customerId: expect.stringMatching(/^cus_team_/) },
    });
    expect(row.devices.map((d) => d.name)).toEqual(['Phone 0', 'Phone 1']);
    expect(Date.parse(row.latestRequest!)).toBeGreaterThan(Date.now() - 60_000);
    // Only the current period's traffic: the day before the period start is left out.
    expect(row.subscription).toMatchObject({ trafficUsed: 5_000_000_000, numRequests: 1234 });
    expect(row.subscription.trafficLimit).toBeGreaterThan(0);
    const canceled = (await list(`?search=${encodeURIComponent(emails.canceled)}`)).users[0]!;
    expect(canceled.subscription.status).toBe('canceled');
    expect(Date.parse(canceled.subscription.canceledAt!)).toBeLessThan(Date.now());
  });

  it('counts the KPI totals over the kept accounts', async () => {
    clockOffset += 31_000;
    const { kpis, total } = await list('?search=nothing-matches-this');
    expect(total).toBe(0);
    const all = await list('?limit=500');
    expect(kpis.totalUsers).toBe(all.total);
    const inTrial = all.users.filter((u) => Date.parse(u.createdAt) > Date.now() - TRIAL_MS).length;
    expect(kpis.onTrial).toBe(inTrial);
    expect(kpis).toMatchObject({ teamActive: 1, proActive: 1, enterpriseActive: 1 });
    const withTests = await list('?includeTestUsers=true&hideDemoUsers=false');
    expect(withTests.kpis.totalUsers).toBe(kpis.totalUsers + 3);
  });

  it('locks and unlocks an account, and makes it a free user', async () => {
    const target = await signUp(server.url, `target-${run}@acme.io`);
    const viewer = await connectViewer(server.url, target.token);
    const closed = closeOf(viewer.ws);
    const lock = await admin.api.call('PATCH', `/v1/admin/users/${target.profile.id}`, { isLockedUser: true });
    expect(lock.status).toBe(200);
    // Its open dashboard's live connection ends at once.
    expect((await closed).code).toBeGreaterThanOrEqual(4401);
    expect((await target.api.get('/v1/user')).body.isLockedUser).toBe(true);
    const refused = await target.api.get('/v1/devices');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Account Locked: Your account has been locked. Please contact support to unlock.');
    expect((await list(`?search=${encodeURIComponent(target.email)}`)).users[0]!.isLockedUser).toBe(true);

    await admin.api.call('PATCH', `/v1/admin/users/${target.profile.id}`, { isLockedUser: false, isFreeUser: true });
    expect((await target.api.get('/v1/devices')).status).toBe(200);
    const row = (await list(`?search=${encodeURIComponent(target.email)}`)).users[0]!;
    expect(row).toMatchObject({ isLockedUser: false, isFreeUser: true, subscription: { plan: 'free', status: 'active', trafficLimit: null } });
    expect((await target.api.get('/v1/user')).body.isFreeUser).toBe(true);

    expect((await admin.api.call('PATCH', `/v1/admin/users/${admin.profile.id}`, { isLockedUser: true })).status).toBe(400);
    expect((await admin.api.call('PATCH', '/v1/admin/users/nobody', { isLockedUser: true })).status).toBe(404);
    expect((await admin.api.call('PATCH', `/v1/admin/users/${target.profile.id}`, {})).status).toBe(400);
    expect((await admin.api.call('PATCH', `/v1/admin/users/${target.profile.id}`, { isAdmin: true })).status).toBe(400);
    expect((await findUserByEmail(server.app.ctx.db, target.email))!.is_admin).toBe(0);
  });

  it('lists the connected clients', async () => {
    const res = await admin.api.get('/v1/admin/clients');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });
});
