import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { AdminSortKey, PlanId } from '@spyglass/protocol';
import type { DatabaseHandle, Db } from '../db/database';
import type { Database } from '../db/schema';
import { utcDayOf } from '../db/sql-dates';
import { toDevice, type DeviceRow } from './devices.repository';

/*
 * The admin area's queries: the only ones that read across accounts. Routes reach them only
 * through the admin role check (routes/admin/), never from a user's own calls.
 */

type Tables = Database & { u: Database['users']; s: Database['subscriptions'] };
type Eb = ExpressionBuilder<Tables, 'u' | 's'>;

/** Who is left out of the list and who is a test account (spec 000 §2.7). */
export interface AdminListFilter {
  search: string | null;
  hideDemoUsers: boolean;
  includeTestUsers: boolean;
  testEmailDomains: readonly string[];
  testEmailMarker: string | null;
}

/** What the subscription columns mean on this server: its plans' limits, and whether billing is on at all. */
export interface AdminPlanFacts {
  /** Self-hosted (no payment provider): every account is a free user. */
  freeForAll: boolean;
  trafficLimitOf: Record<PlanId, number | null>;
  /** Accounts created after this are in their 14-day trial. */
  trialStartedAfter: number;
}

export interface AdminListQuery extends AdminListFilter {
  sort: AdminSortKey;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface AdminUserListRow {
  id: string;
  email: string;
  created_at: number;
  is_demo: number;
  is_test: number;
  is_locked: number;
  is_free: number;
  plan: string;
  status: string;
  billing_cycle: string | null;
  canceled_at: number | null;
  customer_id: string | null;
  devices: number;
  latest_request: number | null;
  traffic_used: number;
  num_requests: number;
  traffic_limit: number | null;
  /** With a search: how many accounts match it (the same on every row). */
  matching: number | null;
}

/** `%text%` for LIKE with its wildcards taken literally (both engines are told the escape character). */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
const like = (column: Expression<string>, pattern: string) => sql<SqlBool>`${column} like ${pattern} escape '\\'`;

function isTestUser(eb: Eb, filter: Pick<AdminListFilter, 'testEmailDomains' | 'testEmailMarker'>): Expression<SqlBool> {
  const email = eb.ref('u.email');
  const tests = filter.testEmailDomains.map((domain) => like(email, `%@${domain.replace(/[\\%_]/g, '\\$&')}`));
  if (filter.testEmailMarker) tests.push(like(email, contains(filter.testEmailMarker)));
  return tests.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(tests);
}

function exclusions(eb: Eb, filter: AdminListFilter, withSearch: boolean): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.hideDemoUsers) conditions.push(eb('u.is_demo', '=', 0));
  if (!filter.includeTestUsers) conditions.push(eb.not(isTestUser(eb, filter)));
  if (withSearch && filter.search) {
    conditions.push(eb.or([like(eb.ref('u.email'), contains(filter.search.toLowerCase())), eb('u.id', '=', filter.search)]));
  }
  return eb.and(conditions);
}

function base(db: Db) {
  return db.selectFrom('users as u').leftJoin('subscriptions as s', 's.user_id', 'u.id');
}

/** The computed columns, the same expressions for what a row shows and what it is sorted by. */
function columns(eb: Eb, engine: DatabaseHandle['engine'], facts: AdminPlanFacts) {
  const free = facts.freeForAll ? sql<SqlBool>`1 = 1` : eb('u.is_free_user', '=', 1);
  const periodStartDay = utcDayOf(engine, eb.fn.coalesce('s.period_start', 'u.created_at'));
  const traffic = (column: 'bytes' | 'items') => eb.fn.coalesce(
    eb.selectFrom('traffic_usage as t').select((t) => t.fn.sum<number>(`t.${column}`).as('n'))
      .whereRef('t.user_id', '=', 'u.id').where('t.day', '>=', periodStartDay),
    sql<number>`0`,
  );
  const limitCases = (Object.entries(facts.trafficLimitOf) as Array<[PlanId, number | null]>).filter(([, limit]) => limit !== null);
  let trafficLimit = eb.case().when(free).then(sql<number | null>`null`);
  for (const [plan, limit] of limitCases) trafficLimit = trafficLimit.when('s.plan', '=', plan).then(sql<number | null>`${sql.lit(limit)}`);
  return {
    devices: eb.selectFrom('devices as d').select((d) => d.fn.countAll<number>().as('n')).whereRef('d.user_id', '=', 'u.id'),
    latestRequest: eb.selectFrom('devices as d').select((d) => d.fn.max('d.last_seen').as('n')).whereRef('d.user_id', '=', 'u.id'),
    trafficUsed: traffic('bytes'),
    numRequests: traffic('items'),
    // Before a plan is chosen the trial is not metered (as billing answers it): no limit.
    trafficLimit: trafficLimit.else(sql<number | null>`null`).end(),
    plan: eb.case().when(free).then('free').else(eb.fn.coalesce('s.plan', sql<string>`'free'`)).end(),
    status: eb.case().when(free).then('active')
      .when('s.status', 'is', null).then(eb.case().when('u.created_at', '>', facts.trialStartedAfter).then('trialing').else('expired').end())
      .else(eb.ref('s.status')).end(),
    billingCycle: eb.case().when(free).then(sql<string | null>`null`).else(eb.ref('s.billing_cycle')).end(),
    canceledAt: eb.case().when(free).then(sql<number | null>`null`).else(eb.ref('s.canceled_at')).end(),
  };
}

function sortExpression(eb: Eb, cols: ReturnType<typeof columns>, sort: AdminSortKey): Expression<unknown> {
  switch (sort) {
    case 'email':
      return eb.ref('u.email');
    case 'createdAt':
      return eb.ref('u.created_at');
    case 'percentageUsed':
      return sql`${cols.trafficUsed} * 100.0 / nullif(${cols.trafficLimit}, 0)`;
    default:
      return cols[sort];
  }
}

/**
 * One page of the admin list, sorted on the server; ties by id so pages never overlap. The page's
 * ids are chosen first (sorting carries only the id and the sort key), then its columns are
 * computed for those rows alone: a sort would otherwise compute every matching account's.
 */
export async function findAdminUsers(database: DatabaseHandle, query: AdminListQuery, facts: AdminPlanFacts): Promise<AdminUserListRow[]> {
  const { db, engine } = database;
  const eb = expressionBuilder<Tables, 'u' | 's'>();
  const cols = columns(eb, engine, facts);
  let pageQuery = base(db)
    .where((w) => exclusions(w, query, true))
    .select([
      'u.id',
      // With a search every account is read anyway: the count comes with the page, in the same scan.
      (query.search ? sql<number | null>`count(*) over ()` : sql<number | null>`null`).as('matching'),
    ]);
  if (query.sort === 'createdAt' || query.sort === 'email') {
    const column = eb.ref(query.sort === 'createdAt' ? 'u.created_at' : 'u.email');
    // Without a search the first page is read off the index in order. With one, walking the
    // index in order tests the search row by row in index order until a page is found (a rare
    // term visits every account); `|| ''` / `+ 0` keep SQLite to one sequential scan and a sort
    // of the matches instead.
    const unindexed = query.sort === 'createdAt' ? sql`${column} + 0` : sql`${column} || ''`;
    pageQuery = pageQuery.orderBy(query.search ? unindexed : column, query.order);
  } else {
    const by = sortExpression(eb, cols, query.sort);
    // Empty values last in either direction, on both engines (they order NULL differently).
    pageQuery = pageQuery.orderBy(sql`case when ${by} is null then 1 else 0 end`).orderBy(sql`${by}`, query.order);
  }
  const page = await pageQuery.orderBy('u.id', query.order).limit(query.limit).offset(query.offset).execute();
  if (page.length === 0) return [];

  const isFree = facts.freeForAll ? sql<number>`1` : sql<number>`${eb.ref('u.is_free_user')}`;
  const rows = await base(db)
    .where('u.id', 'in', page.map((p) => p.id))
    .select([
      'u.id', 'u.email', 'u.created_at', 'u.is_demo', 'u.is_locked', 's.stripe_customer_id as customer_id',
      eb.case().when(isTestUser(eb, query)).then(1).else(0).end().as('is_test'),
      isFree.as('is_free'),
      cols.devices.as('devices'), cols.latestRequest.as('latest_request'), cols.trafficUsed.as('traffic_used'),
      cols.numRequests.as('num_requests'), cols.trafficLimit.as('traffic_limit'), cols.plan.as('plan'), cols.status.as('status'),
      cols.billingCycle.as('billing_cycle'), cols.canceledAt.as('canceled_at'),
    ])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const matching = page[0]!.matching === null ? null : Number(page[0]!.matching);
  return page.flatMap(({ id }) => {
    const row = byId.get(id);
    return row ? [{
      ...row,
      plan: String(row.plan),
      status: String(row.status),
      billing_cycle: row.billing_cycle === null ? null : String(row.billing_cycle),
      devices: Number(row.devices ?? 0),
      latest_request: row.latest_request === null ? null : Number(row.latest_request),
      traffic_used: Number(row.traffic_used ?? 0),
      num_requests: Number(row.num_requests ?? 0),
      traffic_limit: row.traffic_limit === null ? null : Number(row.traffic_limit),
      canceled_at: row.canceled_at === null ? null : Number(row.canceled_at),
      is_test: Number(row.is_test),
      is_free: Number(row.is_free),
      matching,
    }] : [];
  });
}

/** Rows matching the exclusions and the search: the heading's count. */
export async function countAdminUsers(db: Db, filter: AdminListFilter): Promise<number> {
  const row = await db.selectFrom('users as u').where((eb) => exclusions(eb as unknown as Eb, filter, true))
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Spec 000 §2.7 KPI cards over the accounts the list keeps (its search aside): the totals in one
 * pass over the accounts, the active plans from the subscriptions, the smaller table.
 */
export async function adminKpis(db: Db, filter: AdminListFilter, facts: AdminPlanFacts) {
  const kept = { ...filter, search: null };
  const totals = await db.selectFrom('users as u')
    .where((eb) => exclusions(eb as unknown as Eb, kept, false))
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('u.created_at', '>', facts.trialStartedAfter).then(1).else(0).end()).as('on_trial'),
    ])
    .executeTakeFirstOrThrow();
  const active = { team: 0, pro: 0, enterprise: 0 };
  if (!facts.freeForAll) {
    const plans = await db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id')
      .where('s.status', '=', 'active').where('s.plan', 'in', ['team', 'pro', 'enterprise']).where('u.is_free_user', '=', 0)
      .where((eb) => exclusions(eb as unknown as Eb, kept, false))
      .select((eb) => ['s.plan', eb.fn.countAll<number>().as('n')])
      .groupBy('s.plan')
      .execute();
    for (const row of plans) active[row.plan as keyof typeof active] = Number(row.n);
  }
  return {
    totalUsers: Number(totals.total ?? 0),
    onTrial: Number(totals.on_trial ?? 0),
    teamActive: active.team,
    proActive: active.pro,
    enterpriseActive: active.enterprise,
  };
}

/** The devices of the listed accounts, most recently seen first. */
export async function findDevicesOfUsers(db: Db, userIds: readonly string[]): Promise<Map<string, DeviceRow[]>> {
  const byUser = new Map<string, DeviceRow[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db.selectFrom('devices').selectAll().where('user_id', 'in', userIds).orderBy('last_seen', 'desc').execute();
  for (const row of rows) {
    const list = byUser.get(row.user_id) ?? [];
    list.push(row);
    byUser.set(row.user_id, list);
  }
  return byUser;
}

/** `GET /admin/clients`: devices connected now, with their account, most recent first. */
export async function findOnlineClients(db: Db, now: number) {
  const rows = await db.selectFrom('devices').innerJoin('users', 'users.id', 'devices.user_id')
    .selectAll('devices').select('users.email')
    .where('devices.online', '=', 1)
    .orderBy('devices.last_seen', 'desc')
    .limit(1000)
    .execute();
  return rows.map((row) => ({ userId: row.user_id, email: row.email, device: toDevice(row, now) })).filter((c) => c.device.online);
}

/** Staff changes of an account's flags; false when there is no such account. */
export async function setAdminFlags(db: Db, userId: string, patch: { is_locked?: number; is_free_user?: number }, now: number): Promise<boolean> {
  const result = await db.updateTable('users').set({ ...patch, updated_at: now }).where('id', '=', userId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * ADMIN_EMAILS at start-up: exactly the listed accounts whose address is verified are admins (an
 * unverified sign-up with an admin's address proves nothing).
 */
export async function syncAdmins(db: Db, emails: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const demote = trx.updateTable('users').set({ is_admin: 0 }).where('is_admin', '=', 1);
    await (emails.length === 0 ? demote : demote.where((eb) => eb.or([eb('email', 'not in', emails), eb('email_verified', '=', 0)]))).execute();
    if (emails.length > 0) {
      await trx.updateTable('users').set({ is_admin: 1 }).where('email', 'in', emails).where('email_verified', '=', 1).where('is_admin', '=', 0).execute();
    }
  });
}
