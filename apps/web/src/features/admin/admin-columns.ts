import {
  ADMIN_USAGE_THRESHOLDS, billingCycleLetter, formatMegabytes, formatTimestamp, percentageUsed, type AdminSortKey, type AdminUserRow, type ColumnSetting,
} from '@spyglass/protocol';
import { fitColumnWidths } from '../../ui/fit-columns';
import { relativeTime } from '../devices/device-list';

export type AdminColumnId = AdminSortKey | 'customer';

export interface AdminColumn {
  id: AdminColumnId;
  label: string;
  width: number;
  isVisible: boolean;
  align?: 'end';
  /** The width its header needs with the sort arrow, where that is more than `width` (a narrow column named by a long word). */
  sortedWidth?: number;
}

/** Spec 001 §5: no column narrower than this. */
export const ADMIN_COLUMN_MIN_WIDTH = 60;
export const ADMIN_COLUMN_MAX_WIDTH = 600;

/**
 * Spec 000 §2.7: every column of the list; canceledAt hidden by default. Measured in Chromium
 * (12 px headers, 6 px padding, 16 px for the sort arrow): each column is as wide as its longest
 * usual value ('enterprise' and 'canceled' in their pills, '9999.9 MB', '2026-11-26') or its header,
 * two-word headers taking two lines, but no narrower than 60 px (spec 001 §5). Only the sorted
 * column shows the arrow, so only it gets the arrow's room (`sortedWidth`): reserved on every
 * header, it took 33 px from the e-mail. Dates are written as the app writes times (spec 001 §9),
 * without the time (in their title); the latest request is relative for a week, then a date. At
 * 1440 px the box is 1170 px, less the 36 px actions and a desktop browser's 10-15 px vertical
 * scroll bar: the others' 859 px leave the e-mail its whole 260 px, 30 characters (215-239 px)
 * whole (244 px when the list is sorted by Devices or Billing Cycle beside a 15 px bar).
 */
export function defaultAdminColumns(): AdminColumn[] {
  return [
    { id: 'email', label: 'Email', width: 260, isVisible: true },
    { id: 'createdAt', label: 'Created At', width: 88, isVisible: true },
    { id: 'canceledAt', label: 'Canceled At', width: 88, isVisible: false },
    { id: 'plan', label: 'Plan', width: 86, isVisible: true },
    { id: 'devices', label: 'Devices', width: 66, isVisible: true, align: 'end', sortedWidth: 82 },
    { id: 'latestRequest', label: 'Latest Request', width: 88, isVisible: true },
    { id: 'status', label: 'Status', width: 78, isVisible: true },
    { id: 'trafficUsed', label: 'Traffic Used', width: 82, isVisible: true, align: 'end' },
    { id: 'trafficLimit', label: 'Traffic Limit', width: 82, isVisible: true, align: 'end' },
    { id: 'percentageUsed', label: '% Used', width: 64, isVisible: true, align: 'end' },
    { id: 'billingCycle', label: 'Billing Cycle', width: 60, isVisible: true, sortedWidth: 72 },
    { id: 'numRequests', label: 'Requests', width: 87, isVisible: true, align: 'end', sortedWidth: 92 },
    { id: 'customer', label: 'Customer', width: 78, isVisible: true },
  ];
}

/** The e-mail column gives way down to this before the table scrolls sideways. */
export const ADMIN_EMAIL_MIN_WIDTH = 100;

/**
 * The widths to draw the visible columns at in `available` pixels (the scrolling box's inner width:
 * its vertical scroll bar left out): the sorted column, still at its default width, widens to show
 * its arrow; an e-mail column still at its default width narrows to what the others leave (not
 * under ADMIN_EMAIL_MIN_WIDTH); widths the admin chose stand, and the table scrolls when they do
 * not fit.
 */
export function fitAdminColumns(visible: readonly AdminColumn[], available: number, sorted?: AdminColumnId): number[] {
  const defaults = new Map(defaultAdminColumns().map((c) => [c.id, c]));
  return fitColumnWidths(visible.map((c) => {
    const byDefault = defaults.get(c.id)!;
    const atDefault = c.width === byDefault.width;
    const width = c.id === sorted && atDefault ? Math.max(c.width, byDefault.sortedWidth ?? c.width) : c.width;
    return { width, flexible: c.id === 'email' && atDefault };
  }), available, ADMIN_EMAIL_MIN_WIDTH);
}

/**
 * The layout of `defaultAdminColumns`' widths, saved with the columns (the `adminColumnsLayout`
 * setting). Raise it whenever a default width changes, and add the widths replaced to
 * EARLIER_LAYOUTS: an admin's saved columns keep every width of the layout they were saved on,
 * those still at its defaults included, and without this an earlier default reads as chosen.
 */
export const ADMIN_COLUMNS_LAYOUT = 5;

/**
 * The default widths of the earlier layouts, by number. 1: the first list (cf6c621); 2: 180 px
 * dates with their time (fd966d7); 3: medium dates, the list fitted in 1440 px (38198a1); 4:
 * denser columns, the e-mail 260 px (d1684b5). 5 (e3547f3, the current one) gave the sort arrow's
 * room to the sorted column only. Widths saved on 1-4 left the e-mail 240 px, or less than it
 * needs beside the others, at 1440 px: a 30-character address was cut.
 */
const EARLIER_LAYOUTS: Readonly<Record<number, Readonly<Record<AdminColumnId, number>>>> = {
  1: { email: 240, createdAt: 150, canceledAt: 150, plan: 100, devices: 80, latestRequest: 150, status: 100, trafficUsed: 120, trafficLimit: 120, percentageUsed: 90, billingCycle: 100, numRequests: 100, customer: 110 },
  2: { email: 240, createdAt: 180, canceledAt: 180, plan: 100, devices: 80, latestRequest: 180, status: 100, trafficUsed: 120, trafficLimit: 120, percentageUsed: 90, billingCycle: 100, numRequests: 100, customer: 110 },
  3: { email: 240, createdAt: 106, canceledAt: 106, plan: 94, devices: 86, latestRequest: 106, status: 86, trafficUsed: 88, trafficLimit: 88, percentageUsed: 72, billingCycle: 76, numRequests: 96, customer: 84 },
  4: { email: 260, createdAt: 88, canceledAt: 88, plan: 86, devices: 82, latestRequest: 88, status: 78, trafficUsed: 82, trafficLimit: 82, percentageUsed: 64, billingCycle: 72, numRequests: 92, customer: 78 },
};

/**
 * Saved columns brought to the current layout: a width still at the default of the layout they
 * were saved on takes today's default; any other width was chosen by the admin and stands, as do
 * order and visibility. A setting saved before layouts were numbered (`layout` undefined) may come
 * from any earlier one, so a width equal to any earlier default counts as a default there (a width
 * chosen on the current layout before it was numbered, equal to an earlier default by chance,
 * goes back to the default: the price of telling them apart without a number).
 */
export function migrateAdminColumns(saved: readonly ColumnSetting[], layout: number | undefined): readonly ColumnSetting[] {
  if (layout !== undefined && layout >= ADMIN_COLUMNS_LAYOUT) return saved;
  const earlier = layout === undefined ? Object.values(EARLIER_LAYOUTS) : [EARLIER_LAYOUTS[layout]].filter((l) => l !== undefined);
  const current = new Map<string, number>(defaultAdminColumns().map((c) => [c.id, c.width]));
  return saved.map((setting) => {
    const width = current.get(setting.id);
    const atEarlierDefault = earlier.some((widths) => widths[setting.id as AdminColumnId] === setting.width);
    return width !== undefined && atEarlierDefault ? { ...setting, width } : setting;
  });
}

/**
 * The columns from the `adminColumns` setting, saved on layout `layout` (migrateAdminColumns):
 * its order, visibility and widths (60 to 600), the catalogue's labels and alignment; columns it
 * does not name are appended with their defaults, unknown ids are dropped. With nothing visible,
 * the defaults show.
 */
export function resolveAdminColumns(saved: readonly ColumnSetting[], layout: number | undefined): AdminColumn[] {
  const defaults = defaultAdminColumns();
  const byId = new Map(defaults.map((c) => [c.id as string, c]));
  const columns: AdminColumn[] = [];
  for (const setting of migrateAdminColumns(saved, layout)) {
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

/** `2026-11-26 12:36:44.123`, as the app writes times (spec 001 §9). */
const dateTime = (iso: string | null) => (iso === null ? '' : formatTimestamp(iso, { withDate: true }));
/** `2026-11-26`: the date part of `dateTime`. */
const date = (iso: string | null) => dateTime(iso).slice(0, 10);
/** The device list's relative time reads well up to a week; past that its medium date ('May 13, 2026') would need 14 px more than the column's dates. */
const RELATIVE_FOR_MS = 7 * 24 * 3600 * 1000;
const latest = (iso: string, now: number) => (now - Date.parse(iso) < RELATIVE_FOR_MS ? relativeTime(iso, now) : date(iso));

/** The text a cell shows (the customer link and the usage style are the table's); `now` for the relative latest request. */
export function adminCellText(user: AdminUserRow, id: AdminColumnId, now = Date.now()): string {
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
      return user.latestRequest === null ? '' : latest(user.latestRequest, now);
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

/** A cell's title: the whole date and time for the date columns, else the text (read when it is ellipsized). */
export function adminCellTitle(user: AdminUserRow, id: AdminColumnId): string {
  if (id === 'createdAt') return dateTime(user.createdAt);
  if (id === 'canceledAt') return dateTime(user.subscription.canceledAt);
  if (id === 'latestRequest') return dateTime(user.latestRequest);
  return adminCellText(user, id);
}

/** The payment provider's page of a customer. */
export const customerPageUrl = (customerId: string) => `https://dashboard.stripe.com/customers/${encodeURIComponent(customerId)}`;
