import {
  PLANS, TRIAL_MS, type AdminClient, type AdminUserPatch, type AdminKpis, type AdminUserRow, type AdminUsersQuery, type AdminUsersResponse, type PlanId,
} from '@spyglass/protocol';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { isTrue } from '../db/database';
import { badRequest, notFound } from '../errors';
import {
  adminKpis, countAdminUsers, findAdminUsers, findDevicesOfUsers, findOnlineClients, setAdminFlags, syncAdmins,
  type AdminListFilter, type AdminPlanFacts, type AdminUserListRow,
} from '../repositories/admin-users.repository';
import { toDevice } from '../repositories/devices.repository';

type ListQuery = z.output<typeof AdminUsersQuery>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function planFacts(ctx: AppContext): AdminPlanFacts {
  const trafficLimitOf = Object.fromEntries(PLANS.map((plan) => [plan, ctx.billing.plan(plan)?.trafficLimit ?? null])) as Record<PlanId, number | null>;
  return { freeForAll: !ctx.billing.enabled, trafficLimitOf, trialStartedAfter: ctx.now() - TRIAL_MS };
}

function listFilter(ctx: AppContext, query: ListQuery): AdminListFilter {
  const { testEmailDomains, testEmailMarker } = ctx.config.admin;
  return { search: query.search || null, hideDemoUsers: query.hideDemoUsers, includeTestUsers: query.includeTestUsers, testEmailDomains, testEmailMarker };
}

/**
 * The KPI totals change slowly and cost a pass over every account: each node keeps them this
 * long per set of exclusions (and forgets them when one of its admins changes an account).
 */
const KPI_TTL_MS = 30_000;
const kpiCache = new WeakMap<AppContext, Map<string, { at: number; kpis: Promise<AdminKpis> }>>();

function cachedKpis(ctx: AppContext, filter: AdminListFilter, facts: AdminPlanFacts): Promise<AdminKpis> {
  let byFilter = kpiCache.get(ctx);
  if (!byFilter) kpiCache.set(ctx, (byFilter = new Map()));
  const key = `${filter.hideDemoUsers}:${filter.includeTestUsers}`;
  const now = ctx.now();
  const hit = byFilter.get(key);
  if (hit && now - hit.at < KPI_TTL_MS) return hit.kpis;
  const kpis = adminKpis(ctx.db, filter, facts);
  byFilter.set(key, { at: now, kpis });
  kpis.catch(() => byFilter.delete(key));
  return kpis;
}

/** `GET /admin/users`: one page of the admin list, its count and the KPI totals (spec 000 §2.7). */
export async function listAdminUsers(ctx: AppContext, query: ListQuery): Promise<AdminUsersResponse> {
  const filter = listFilter(ctx, query);
  const facts = planFacts(ctx);
  const [rows, kpis] = await Promise.all([
    findAdminUsers(ctx.database, { ...filter, sort: query.sort, order: query.order, offset: query.offset, limit: query.limit }, facts),
    cachedKpis(ctx, filter, facts),
  ]);
  const total = rows[0]?.matching ?? await countAdminUsers(ctx.db, filter);
  const devices = await findDevicesOfUsers(ctx.db, rows.map((row) => row.id));
  const now = ctx.now();
  return {
    users: rows.map((row) => toAdminRow(row, (devices.get(row.id) ?? []).map((d) => toDevice(d, now)))),
    total,
    kpis,
  };
}

function toAdminRow(row: AdminUserListRow, devices: Array<{ id: string; name: string; platform: string }>): AdminUserRow {
  return {
    id: row.id,
    email: row.email,
    createdAt: new Date(row.created_at).toISOString(),
    isDemoUser: isTrue(row.is_demo),
    isTestUser: isTrue(row.is_test),
    isLockedUser: isTrue(row.is_locked),
    isFreeUser: isTrue(row.is_free),
    devices: devices.map(({ id, name, platform }) => ({ id, name, platform })),
    devicesCount: row.devices,
    latestRequest: iso(row.latest_request),
    subscription: {
      plan: row.plan as AdminUserRow['subscription']['plan'],
      status: row.status as AdminUserRow['subscription']['status'],
      billingCycle: row.billing_cycle as AdminUserRow['subscription']['billingCycle'],
      canceledAt: iso(row.canceled_at),
      trafficUsed: row.traffic_used,
      trafficLimit: row.traffic_limit,
      numRequests: row.num_requests,
      customerId: row.customer_id,
    },
  };
}

/** `GET /admin/clients`: the SDK clients connected now. */
export async function listClients(ctx: AppContext): Promise<AdminClient[]> {
  return (await findOnlineClients(ctx.db, ctx.now())).map(({ userId, email, device }) => ({
    userId,
    email,
    deviceId: device.id,
    name: device.name,
    platform: device.platform,
    sdkVersion: device.sdkVersion ?? null,
    lastSeen: device.lastSeen,
  }));
}

/** Staff actions: lock or unlock an account, make it a free user or not. */
export async function updateAdminUser(ctx: AppContext, adminId: string, userId: string, patch: AdminUserPatch): Promise<void> {
  if (userId === adminId && patch.isLockedUser) throw badRequest('You cannot lock your own account');
  const flags = {
    ...(patch.isLockedUser === undefined ? {} : { is_locked: patch.isLockedUser ? 1 : 0 }),
    ...(patch.isFreeUser === undefined ? {} : { is_free_user: patch.isFreeUser ? 1 : 0 }),
  };
  if (!(await setAdminFlags(ctx.db, userId, flags, ctx.now()))) throw notFound('User not found');
  kpiCache.delete(ctx);
  // The account's live connections, on every node, check themselves now instead of within 30 s.
  if (patch.isLockedUser) ctx.live.hub.credentialsChanged(userId);
}

/** ADMIN_EMAILS at start-up: the listed accounts, once their address is verified, are the admins. */
export function applyAdminEmails(ctx: AppContext): Promise<void> {
  return syncAdmins(ctx.db, ctx.config.admin.emails);
}

/**
 * The admin flag of an account whose address has just been verified (its sign-up link, or a
 * confirmed e-mail change): an address ADMIN_EMAILS names is an admin at once, without a restart,
 * and any other is not, as `applyAdminEmails` would decide at the next start.
 */
export function adminFlagOf(ctx: AppContext, verifiedEmail: string): 0 | 1 {
  return ctx.config.admin.emails.includes(verifiedEmail.toLowerCase()) ? 1 : 0;
}
