/**
 * Issue 20, performance: GET /v1/admin/users over 100,000 accounts on the embedded engine
 * (SQLite), in-process (buildApp, app.inject: the server's time including validation and
 * serialization). The first page (100 rows) with a search and a sort, against the same query
 * without the search (the default list). Goal: ≤200 ms. Every answer carries the heading's count
 * and the KPI totals, so each request also counts the matching accounts and makes one pass over
 * all of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER } from '../../packages/protocol/src/index';
import { buildApp } from '../../apps/server/src/app';
import { applyAdminEmails } from '../../apps/server/src/services/admin.service';
import { medianMs, result, type BenchResult } from '../lib';

const USERS = 100_000;
const RUNS = 15;
const DAY = 24 * 60 * 60 * 1000;
const ADMIN = 'bench-admin@staff.acme.io';

export default async function adminSuite(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-bench-admin-'));
  const app = await buildApp({
    logger: false,
    config: {
      dataDir, databaseUrl: null, authRateLimit: { perIp: 1e6, perEmail: 1e6, windowS: 60 },
      // Hosted billing (no call reaches the provider), so that plans, trials and limits are computed.
      stripe: { secretKey: 'sk_test_bench', webhookSecret: null, apiUrl: 'http://127.0.0.1:9' },
      admin: { emails: [ADMIN], testEmailDomains: ['example.com'], testEmailMarker: '+test' },
    },
  });
  try {
    const headers = { [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD };
    const signup = await app.inject({ method: 'POST', url: '/v1/auth/signup', headers, payload: { email: ADMIN, password: 'correct-horse-42!' } });
    const { token } = signup.json() as { token: string };
    await app.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', '=', ADMIN).execute();
    await applyAdminEmails(app.ctx);
    await seed(app.ctx.db);

    const auth = { ...headers, authorization: `Bearer ${token}` };
    const page = async (query: string) => {
      const res = await app.inject({ method: 'GET', url: `/v1/admin/users?${query}`, headers: auth });
      if (res.statusCode !== 200) throw new Error(`GET /v1/admin/users?${query}: ${res.statusCode} ${res.body}`);
      return res.json() as { users: unknown[]; total: number };
    };
    const searched = await page('search=customer7&sort=createdAt&order=desc');
    if (searched.users.length !== 100 || searched.total < 100) throw new Error(`the search matched ${searched.total}`);

    const baseline = await medianMs(RUNS, () => page('sort=createdAt&order=desc'));
    const withSearch = await medianMs(RUNS, () => page('search=customer7&sort=createdAt&order=desc'));
    const rare = await medianMs(RUNS, () => page('search=user-4242&sort=createdAt&order=desc'));
    const byTraffic = await medianMs(RUNS, () => page('search=customer7&sort=trafficUsed&order=desc'));
    const notes = `${USERS.toLocaleString('en-US')} accounts (2% demo, 2.5% test), 20,000 subscriptions, 30,000 devices, 300,000 traffic days; SQLite`;
    return [
      result({ name: 'admin users: first page, search + sort (createdAt)', value: withSearch, unit: 'ms', baseline: 'the same without search', baselineValue: baseline, goal: '≤200 ms', notes }),
      result({ name: 'admin users: first page, rare search + sort', value: rare, unit: 'ms', baseline: 'the same without search', baselineValue: baseline, goal: '≤200 ms' }),
      result({ name: 'admin users: first page, search + sort by trafficUsed', value: byTraffic, unit: 'ms', baseline: 'the same without search', baselineValue: baseline }),
      result({ name: 'admin users: first page, no search (baseline)', value: baseline, unit: 'ms', baseline: null, baselineValue: null }),
    ];
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seed(db: Awaited<ReturnType<typeof buildApp>>['ctx']['db']): Promise<void> {
  const now = Date.now();
  const plans = ['team', 'pro', 'enterprise'] as const;
  const statuses = ['active', 'active', 'trialing', 'canceled'] as const;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < USERS; start += 500) {
      const users = [];
      const subscriptions = [];
      const devices = [];
      const traffic = [];
      for (let i = start; i < Math.min(USERS, start + 500); i++) {
        const id = `bench-user-${i}`;
        const domain = i % 40 === 0 ? 'example.com' : `customer${i % 100}.io`;
        const created = now - Math.floor((i / USERS) * 730 * DAY);
        users.push({
          id, email: `user-${i}@${domain}`, password_hash: null, auth_provider: 'email' as const, email_verified: 1, api_key: `sg_bench_${i}`,
          is_demo: i % 50 === 0 ? 1 : 0, settings: '{}', timezone: null, referrer: null, created_at: created, updated_at: created,
        });
        if (i % 5 === 0) {
          subscriptions.push({
            user_id: id, plan: plans[i % 3]!, status: statuses[i % 4]!, billing_cycle: i % 2 === 0 ? 'monthly' as const : 'yearly' as const,
            period_start: now - 10 * DAY, period_end: now + 20 * DAY, trial_ends_at: null, canceled_at: statuses[i % 4] === 'canceled' ? now - DAY : null,
            cancel_reason: null, stripe_customer_id: `cus_${i}`, stripe_subscription_id: null, created_at: now, updated_at: now,
          });
        }
        if (i % 10 < 3) {
          devices.push({
            id: `phone-${i}`, user_id: id, platform: 'ios', info: '{"platform":"ios","name":"Phone"}', name_override: null, group_override: null,
            feature_toggles: '{}', last_seen: now - (i % 30) * DAY, created_at: now, updated_at: now,
          });
          for (let d = 0; d < 10; d++) traffic.push({ user_id: id, day: new Date(now - d * DAY).toISOString().slice(0, 10), bytes: (i % 97) * 1_000_000, items: i % 97 });
        }
      }
      await trx.insertInto('users').values(users).execute();
      if (subscriptions.length > 0) await trx.insertInto('subscriptions').values(subscriptions).execute();
      if (devices.length > 0) await trx.insertInto('devices').values(devices).execute();
      if (traffic.length > 0) await trx.insertInto('traffic_usage').values(traffic).execute();
    }
  });
}
