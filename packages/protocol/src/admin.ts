import { z } from 'zod';
import { BILLING_CYCLES, PLANS, SUBSCRIPTION_STATUSES } from './billing';
import { Id, IsoDate } from './common';

/** Spec 000 §9: the admin list's virtual rows. */
export const ADMIN_LIST = { pool: 40, overscan: 20, pageSize: 100, maxPageSize: 500 } as const;
/** Spec 000 §9: percentageUsed turns to warning above 80 and to limit-exceeded above 100. */
export const ADMIN_USAGE_THRESHOLDS = { warning: 80, exceeded: 100 } as const;

/** Columns the admin list sorts by on the server (spec 000 §2.7). */
export const ADMIN_SORT_KEYS = [
  'email', 'createdAt', 'canceledAt', 'plan', 'devices', 'latestRequest', 'status', 'trafficUsed', 'trafficLimit',
  'percentageUsed', 'billingCycle', 'numRequests',
] as const;
export type AdminSortKey = (typeof ADMIN_SORT_KEYS)[number];

/** A query-string flag: `true`/`1` or `false`/`0`. */
const Flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const AdminUsersQuery = z.strictObject({
  search: z.string().trim().max(200).optional(),
  sort: z.enum(ADMIN_SORT_KEYS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(ADMIN_LIST.maxPageSize).default(ADMIN_LIST.pageSize),
  /** The Hide Demo Users toggle; on by default. */
  hideDemoUsers: Flag.default(true),
  /** Test accounts (test e-mail domains, the test marker) are left out unless asked for. */
  includeTestUsers: Flag.default(false),
});
export type AdminUsersQuery = z.input<typeof AdminUsersQuery>;

export const AdminUserDevice = z.object({ id: z.string(), name: z.string(), platform: z.string() });

/** Spec 000 §3: the admin user row. Traffic in bytes, dates ISO. */
export const AdminUserRow = z.object({
  id: Id,
  email: z.string(),
  createdAt: IsoDate,
  isDemoUser: z.boolean(),
  isTestUser: z.boolean(),
  isLockedUser: z.boolean(),
  isFreeUser: z.boolean(),
  devices: z.array(AdminUserDevice),
  devicesCount: z.number().int(),
  /** When a device of the account last sent anything. */
  latestRequest: IsoDate.nullable(),
  subscription: z.object({
    plan: z.enum(PLANS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    billingCycle: z.enum(BILLING_CYCLES).nullable(),
    canceledAt: IsoDate.nullable(),
    trafficUsed: z.number(),
    trafficLimit: z.number().nullable(),
    numRequests: z.number(),
    /** The payment provider's customer id (its dashboard's customer page). */
    customerId: z.string().nullable(),
  }),
});
export type AdminUserRow = z.infer<typeof AdminUserRow>;

/** Spec 000 §2.7 KPI cards, counted over the list's exclusions (not its search). */
export const AdminKpis = z.object({
  totalUsers: z.number().int(),
  onTrial: z.number().int(),
  teamActive: z.number().int(),
  proActive: z.number().int(),
  enterpriseActive: z.number().int(),
});
export type AdminKpis = z.infer<typeof AdminKpis>;

export const AdminUsersResponse = z.object({
  users: z.array(AdminUserRow),
  /** Rows matching the search and exclusions: the heading's count. */
  total: z.number().int(),
  kpis: AdminKpis,
});
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/** `GET /admin/clients`: the accounts' connected SDK clients (devices online now). */
export const AdminClient = z.object({
  userId: Id,
  email: z.string(),
  deviceId: z.string(),
  name: z.string(),
  platform: z.string(),
  sdkVersion: z.string().nullable(),
  lastSeen: IsoDate,
});
export type AdminClient = z.infer<typeof AdminClient>;

/** Staff actions on an account: lock or unlock it, make it a free user or not. */
export const AdminUserPatch = z.strictObject({
  isLockedUser: z.boolean().optional(),
  isFreeUser: z.boolean().optional(),
}).refine((p) => p.isLockedUser !== undefined || p.isFreeUser !== undefined, { error: 'Nothing to change' });
export type AdminUserPatch = z.infer<typeof AdminUserPatch>;

/** Admin texts of spec 000 §8. */
export const ADMIN_MESSAGES = { loadError: 'Error loading users', loadFailed: 'Failed to load users' } as const;

/** MB as a million bytes (spec 000 §9), one decimal. */
export const formatMegabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** The percentage of the traffic limit used; null without a limit. */
export function percentageUsed(trafficUsed: number, trafficLimit: number | null): number | null {
  if (trafficLimit === null || trafficLimit <= 0) return null;
  return (trafficUsed / trafficLimit) * 100;
}

/** Spec 000 §2.7: the billing cycle as M or Y. */
export const billingCycleLetter = (cycle: string | null): string => (cycle === 'monthly' ? 'M' : cycle === 'yearly' ? 'Y' : '');
