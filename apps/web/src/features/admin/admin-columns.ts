import {
  ADMIN_USAGE_THRESHOLDS, billingCycleLetter, formatMegabytes, percentageUsed, type AdminSortKey, type AdminUserRow, type ColumnSetting,
} from '@spyglass/protocol';

export type AdminColumnId = AdminSortKey | 'customer';

export interface AdminColumn {
  id: AdminColumnId;
  label: string;
  width: number;
  isVisible: boolean;
  align?: 'end';
}

/** Spec 001 §5: no column narrower than this. */
export const ADMIN_COLUMN_MIN_WIDTH = 60;
export const ADMIN_COLUMN_MAX_WIDTH = 600;

/**
 * Spec 000 §2.7: every column of the list; canceledAt hidden by default. The date columns are wide
 * enough for the longest medium date and short time ('Sep 30, 2026, 11:59 PM').
 */
export function defaultAdminColumns(): AdminColumn[] {
  return [
    { id: 'email', label: 'Email', width: 240, isVisible: true },
    { id: 'createdAt', label: 'Created At', width: 180, isVisible: true },
    { id: 'canceledAt', label: 'Canceled At', width: 180, isVisible: false },
    { id: 'plan', label: 'Plan', width: 100, isVisible: true },
    { id: 'devices', label: 'Devices', width: 80, isVisible: true, align: 'end' },
    { id: 'latestRequest', label: 'Latest Request', width: 180, isVisible: true },
    { id: 'status', label: 'Status', width: 100, isVisible: true },
    { id: 'trafficUsed', label: 'Traffic Used', width: 120, isVisible: true, align: 'end' },
    { id: 'trafficLimit', label: 'Traffic Limit', width: 120, isVisible: true, align: 'end' },
    { id: 'percentageUsed', label: '% Used', width: 90, isVisible: true, align: 'end' },
    { id: 'billingCycle', label: 'Billing Cycle', width: 100, isVisible: true },
    { id: 'numRequests', label: 'Requests', width: 100, isVisible: true, align: 'end' },
    { id: 'customer', label: 'Customer', width: 110, isVisible: true },
  ];
}

/**
 * The columns from the `adminColumns` setting: its order, visibility and widths (60 to 600), the
 * catalogue's labels and alignment; columns it does not name are appended with their defaults,
 * unknown ids are dropped. With nothing visible, the defaults show.
 */
export function resolveAdminColumns(saved: readonly ColumnSetting[]): AdminColumn[] {
  const defaults = defaultAdminColumns();
  const byId = new Map(defaults.map((c) => [c.id as string, c]));
  const columns: AdminColumn[] = [];
  for (const setting of saved) {
    const known = byId.get(setting.id);
    if (!known) continue;
    byId.delete(setting.id);
    columns.push({ ...known, isVisible: setting.isVisible, width: clampAdminWidth(setting.width) });
  }
  columns.push(...defaults.filter((c) => byId.has(c.id)));
  return columns.some((c) => c.isVisible) ? columns : defaults;
}

/** The columns as the setting stores them. */
export const adminColumnSettings = (columns: readonly AdminColumn[]): ColumnSetting[] =>
  columns.map(({ id, label, width, isVisible }) => ({ id, label, width, isVisible }));

const clampAdminWidth = (width: number) => Math.max(ADMIN_COLUMN_MIN_WIDTH, Math.min(ADMIN_COLUMN_MAX_WIDTH, Math.round(width)));

export const setAdminColumnVisible = (columns: readonly AdminColumn[], id: AdminColumnId, isVisible: boolean): AdminColumn[] =>
  columns.map((c) => (c.id === id ? { ...c, isVisible } : c));

export const setAdminColumnWidth = (columns: readonly AdminColumn[], id: AdminColumnId, width: number): AdminColumn[] =>
  columns.map((c) => (c.id === id ? { ...c, width: clampAdminWidth(width) } : c));

/** Spec 000 §9: warning above 80, limit-exceeded above 100. */
export function usageLevel(percentage: number | null): 'ok' | 'warning' | 'exceeded' {
  if (percentage === null) return 'ok';
  if (percentage > ADMIN_USAGE_THRESHOLDS.exceeded) return 'exceeded';
  if (percentage > ADMIN_USAGE_THRESHOLDS.warning) return 'warning';
  return 'ok';
}

const date = (iso: string | null) => (iso === null ? '' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

/** The text a cell shows (the customer link and the usage style are the table's). */
export function adminCellText(user: AdminUserRow, id: AdminColumnId): string {
  const s = user.subscription;
  switch (id) {
    case 'email':
      return user.email;
    case 'createdAt':
      return date(user.createdAt);
    case 'canceledAt':
      return date(s.canceledAt);
    case 'plan':
      return s.plan;
    case 'devices':
      return String(user.devicesCount);
    case 'latestRequest':
      return date(user.latestRequest);
    case 'status':
      return s.status;
    case 'trafficUsed':
      return formatMegabytes(s.trafficUsed);
    case 'trafficLimit':
      return s.trafficLimit === null ? '' : formatMegabytes(s.trafficLimit);
    case 'percentageUsed': {
      const p = percentageUsed(s.trafficUsed, s.trafficLimit);
      return p === null ? '' : `${p.toFixed(1)}%`;
    }
    case 'billingCycle':
      return billingCycleLetter(s.billingCycle);
    case 'numRequests':
      return s.numRequests.toLocaleString('en-US');
    case 'customer':
      return s.customerId ?? '';
  }
}

/** The payment provider's page of a customer. */
export const customerPageUrl = (customerId: string) => `https://dashboard.stripe.com/customers/${encodeURIComponent(customerId)}`;
