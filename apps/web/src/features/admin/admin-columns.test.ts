import { describe, expect, it } from 'vitest';
import type { AdminUserRow } from '@spyglass/protocol';
import {
  ADMIN_COLUMNS_LAYOUT, ADMIN_EMAIL_MIN_WIDTH, adminCellText, adminCellTitle, adminColumnSettings, defaultAdminColumns, fitAdminColumns, migrateAdminColumns,
  resolveAdminColumns, setAdminColumnVisible, setAdminColumnWidth, usageLevel, type AdminColumnId,
} from './admin-columns';

const row: AdminUserRow = {
  id: 'u1', email: 'ada@acme.io', createdAt: '2026-01-02T03:04:05.000Z', isDemoUser: false, isTestUser: false, isLockedUser: false, isFreeUser: false,
  devices: [], devicesCount: 3, latestRequest: null,
  subscription: { plan: 'team', status: 'active', billingCycle: 'yearly', canceledAt: null, trafficUsed: 4_250_000_000, trafficLimit: 5_000_000_000, numRequests: 12345, customerId: 'cus_1' },
};

describe('admin columns (spec 000 §2.7, §9)', () => {
  it('hides canceledAt by default and keeps widths at least 60', () => {
    const columns = defaultAdminColumns();
    expect(columns.filter((c) => !c.isVisible).map((c) => c.id)).toEqual(['canceledAt']);
    expect(setAdminColumnWidth(columns, 'email', 10).find((c) => c.id === 'email')!.width).toBe(60);
    expect(setAdminColumnVisible(columns, 'plan', false).find((c) => c.id === 'plan')!.isVisible).toBe(false);
  });

  it('shows MB as a million bytes, the cycle as M or Y, and the percentage used', () => {
    expect(adminCellText(row, 'trafficUsed')).toBe('4250.0 MB');
    expect(adminCellText(row, 'trafficLimit')).toBe('5000.0 MB');
    expect(adminCellText(row, 'billingCycle')).toBe('Y');
    expect(adminCellText({ ...row, subscription: { ...row.subscription, billingCycle: 'monthly' } }, 'billingCycle')).toBe('M');
    expect(adminCellText(row, 'percentageUsed')).toBe('85.0%');
    expect(adminCellText(row, 'devices')).toBe('3');
    expect(adminCellText({ ...row, subscription: { ...row.subscription, trafficLimit: null } }, 'percentageUsed')).toBe('');
  });

  it('warns above 80 and marks the limit exceeded above 100', () => {
    expect(usageLevel(80)).toBe('ok');
    expect(usageLevel(80.1)).toBe('warning');
    expect(usageLevel(100)).toBe('warning');
    expect(usageLevel(100.1)).toBe('exceeded');
    expect(usageLevel(null)).toBe('ok');
  });

  it('come back from the saved setting in its order, visibility and widths', () => {
    const changed = setAdminColumnVisible(setAdminColumnWidth(defaultAdminColumns(), 'email', 320), 'canceledAt', true);
    expect(resolveAdminColumns(adminColumnSettings(changed), ADMIN_COLUMNS_LAYOUT)).toEqual(changed);
    const reordered = resolveAdminColumns([
      { id: 'status', label: 'old', width: 5000, isVisible: true },
      { id: 'gone', label: 'Gone', width: 100, isVisible: true },
    ], ADMIN_COLUMNS_LAYOUT);
    expect(reordered[0]).toEqual({ id: 'status', label: 'Status', width: 600, isVisible: true });
    expect(reordered.map((c) => c.id).sort()).toEqual(defaultAdminColumns().map((c) => c.id).sort());
    expect(resolveAdminColumns([], undefined)).toEqual(defaultAdminColumns());
    const hidden = adminColumnSettings(defaultAdminColumns().map((c) => ({ ...c, isVisible: false })));
    expect(resolveAdminColumns(hidden, ADMIN_COLUMNS_LAYOUT)).toEqual(defaultAdminColumns());
  });

  it('shows dates without their time (the title has it) and the latest request relative to now', () => {
    // As the app writes times (spec 001 §9): '2026-01-02', and '2026-01-02 03:04:05.000' in the title.
    expect(adminCellText(row, 'createdAt')).toMatch(/^2026-01-0[12]$/);
    expect(adminCellTitle(row, 'createdAt')).toMatch(/^2026-01-0[12] \d\d:04:05\.000$/);
    const now = Date.parse('2026-01-02T05:04:05.000Z');
    const active = { ...row, latestRequest: '2026-01-02T03:04:05.000Z' };
    expect(adminCellText(active, 'latestRequest', now)).toBe('2 h ago');
    expect(adminCellTitle(active, 'latestRequest')).toMatch(/2026.*\d:\d\d/);
    expect(adminCellText(row, 'latestRequest', now)).toBe('');
    // Past a week, a date like the other date columns ('May 13, 2026' would not fit the column).
    expect(adminCellText({ ...row, latestRequest: '2025-12-20T12:00:00.000Z' }, 'latestRequest', now)).toBe('2025-12-20');
  });

  it('narrow the e-mail column to what the others leave, and keep widths the admin chose', () => {
    const visible = defaultAdminColumns().filter((c) => c.isVisible);
    const others = visible.slice(1).reduce((sum, c) => sum + c.width, 0);
    expect(fitAdminColumns(visible, 2000)).toEqual(visible.map((c) => c.width));
    // A narrow box: the e-mail takes what the others leave.
    const fitted = fitAdminColumns(visible, 1000);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeLessThanOrEqual(1000);
    expect(fitted[0]).toBe(1000 - others);
    expect(fitted.slice(1)).toEqual(visible.slice(1).map((c) => c.width));
    // Where even its minimum leaves no room, the table scrolls and the e-mail keeps its width.
    expect(fitAdminColumns(visible, others + ADMIN_EMAIL_MIN_WIDTH)[0]).toBe(ADMIN_EMAIL_MIN_WIDTH);
    expect(fitAdminColumns(visible, 900)[0]).toBe(visible[0]!.width);
    const chosen = setAdminColumnWidth(visible, 'email', 300);
    expect(fitAdminColumns(chosen, 1000)[0]).toBe(300);
  });

  it('leave a 30-character e-mail whole at 1440 px beside a vertical scroll bar, and give only the sorted column its arrow\'s room', () => {
    const visible = defaultAdminColumns().filter((c) => c.isVisible);
    // The 1170 px box less a 10 px (Chromium's thin) or 15 px scroll bar and the 36 px actions; a
    // 30-character e-mail measures up to 239 px, and 12 of padding.
    for (const bar of [0, 10, 15]) expect(fitAdminColumns(visible, 1170 - bar - 36, 'createdAt')[0]).toBeGreaterThanOrEqual(239 + 12);
    // Sorted by Devices: its header shows 'Devices' and the arrow; the e-mail gives the room.
    const others = visible.slice(1).reduce((sum, c) => sum + c.width, 0);
    const byDevices = fitAdminColumns(visible, 1119, 'devices');
    const devices = visible.findIndex((c) => c.id === 'devices');
    expect(byDevices[devices]).toBe(82);
    expect(byDevices[0]).toBe(1119 - (others + 16));
    expect(byDevices.reduce((sum, w) => sum + w, 0)).toBe(1119);
    // A width the admin chose stands, sorted or not.
    const chosen = setAdminColumnWidth(visible, 'devices', 70);
    expect(fitAdminColumns(chosen, 1124, 'devices')[devices]).toBe(70);
  });

  describe('saved on an earlier layout of default widths', () => {
    /** The setting as an admin's list saved it on layout 3 (38198a1), before layouts were numbered: every column, Plan hidden, Customer made wider. */
    const layout3 = adminColumnSettings(setAdminColumnWidth(setAdminColumnVisible(defaultAdminColumns(), 'plan', false), 'customer', 120)).map((c) => ({
      ...c,
      width: c.id === 'customer' ? c.width : ({ email: 240, createdAt: 106, canceledAt: 106, plan: 94, devices: 86, latestRequest: 106, status: 86, trafficUsed: 88, trafficLimit: 88, percentageUsed: 72, billingCycle: 76, numRequests: 96 } as Record<string, number>)[c.id]!,
    }));
    const widthOf = (columns: readonly { id: string; width: number }[], id: AdminColumnId) => columns.find((c) => c.id === id)!.width;

    it('take today\'s defaults where they were at the old ones, and keep what the admin chose', () => {
      const columns = resolveAdminColumns(layout3, undefined);
      const defaults = defaultAdminColumns();
      for (const column of defaults.filter((c) => c.id !== 'customer')) expect(widthOf(columns, column.id), column.id).toBe(column.width);
      expect(widthOf(columns, 'customer')).toBe(120);
      expect(columns.find((c) => c.id === 'plan')!.isVisible).toBe(false);
      expect(columns.map((c) => c.id)).toEqual(defaults.map((c) => c.id));
      // So a 30-character e-mail (up to 239 px, and 12 of padding) shows whole again at 1440 px
      // beside a 15 px scroll bar; on the old widths it had 240 px, and the list scrolled sideways.
      const visible = columns.filter((c) => c.isVisible);
      expect(fitAdminColumns(visible, 1170 - 15 - 36, 'createdAt')[0]).toBeGreaterThanOrEqual(239 + 12);
      const old = resolveAdminColumns(layout3, ADMIN_COLUMNS_LAYOUT).filter((c) => c.isVisible);
      expect(fitAdminColumns(old, 1170 - 15 - 36, 'createdAt')[0]).toBe(240);
    });

    it('migrate every earlier layout\'s defaults, the e-mail included', () => {
      const layouts: Partial<Record<AdminColumnId, number>>[] = [
        { email: 240, createdAt: 150, latestRequest: 150, trafficUsed: 120, customer: 110 },
        { email: 240, createdAt: 180, latestRequest: 180, status: 100 },
        { email: 260, devices: 82, billingCycle: 72, numRequests: 92 },
      ];
      for (const earlier of layouts) {
        const saved = adminColumnSettings(defaultAdminColumns().map((c) => ({ ...c, width: earlier[c.id] ?? c.width })));
        expect(resolveAdminColumns(saved, undefined)).toEqual(defaultAdminColumns());
      }
    });

    it('keep every width saved on the current layout, an earlier default among them', () => {
      // Devices widened from 66 to 86 by two steps of its handle: layout 3's default, chosen now.
      const chosen = adminColumnSettings(setAdminColumnWidth(defaultAdminColumns(), 'devices', 86));
      expect(widthOf(resolveAdminColumns(chosen, ADMIN_COLUMNS_LAYOUT), 'devices')).toBe(86);
      expect(migrateAdminColumns(chosen, ADMIN_COLUMNS_LAYOUT)).toBe(chosen);
      // Unnumbered, it cannot be told from layout 3's default.
      expect(widthOf(resolveAdminColumns(chosen, undefined), 'devices')).toBe(66);
      // A later layout than this client knows (a newer client saved it): as saved.
      expect(migrateAdminColumns(layout3, ADMIN_COLUMNS_LAYOUT + 1)).toBe(layout3);
    });

    it('compare a numbered layout\'s widths with its own defaults only', () => {
      // Saved on layout 3: 150 px for Created At was chosen there (layout 1's default, not 3's).
      const saved = layout3.map((c) => (c.id === 'createdAt' ? { ...c, width: 150 } : c));
      const columns = migrateAdminColumns(saved, 3);
      expect(widthOf(columns, 'createdAt')).toBe(150);
      expect(widthOf(columns, 'latestRequest')).toBe(88);
      expect(widthOf(columns, 'customer')).toBe(120);
    });
  });
});
