import { describe, expect, it } from 'vitest';
import type { AdminUserRow } from '@spyglass/protocol';
import {
  adminCellText, adminColumnSettings, defaultAdminColumns, resolveAdminColumns, setAdminColumnVisible, setAdminColumnWidth, usageLevel,
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
    expect(resolveAdminColumns(adminColumnSettings(changed))).toEqual(changed);
    const reordered = resolveAdminColumns([
      { id: 'status', label: 'old', width: 5000, isVisible: true },
      { id: 'gone', label: 'Gone', width: 100, isVisible: true },
    ]);
    expect(reordered[0]).toEqual({ id: 'status', label: 'Status', width: 600, isVisible: true });
    expect(reordered.map((c) => c.id).sort()).toEqual(defaultAdminColumns().map((c) => c.id).sort());
    expect(resolveAdminColumns([])).toEqual(defaultAdminColumns());
    const hidden = adminColumnSettings(defaultAdminColumns().map((c) => ({ ...c, isVisible: false })));
    expect(resolveAdminColumns(hidden)).toEqual(defaultAdminColumns());
  });
});
