import { z } from 'zod';
import { LIMITS, SIDEBAR } from './constants';

export const THEMES = ['default', 'dark', 'light'] as const;
export const Theme = z.enum(THEMES);
export type Theme = z.infer<typeof Theme>;

export const COLUMN_MIN_WIDTH = 60;

/** A column of the captured-item table (spec 001 §3). */
export const ColumnSetting = z.strictObject({
  id: z.string().min(1).max(100),
  label: z.string().max(100),
  width: z.number().int().min(COLUMN_MIN_WIDTH).max(5000),
  isVisible: z.boolean(),
});
export type ColumnSetting = z.infer<typeof ColumnSetting>;

export const DeviceColumnSetting = z.strictObject({
  id: z.string().min(1).max(100),
  label: z.string().max(100),
  isVisible: z.boolean(),
  width: z.number().int().min(COLUMN_MIN_WIDTH).max(5000),
});
export type DeviceColumnSetting = z.infer<typeof DeviceColumnSetting>;

export const VIEW_MODES = ['table', 'console'] as const;
export const ITEM_FILTERS = ['all', 'network', 'log', 'event', 'screenshot', 'mocks', 'firebaseAnalytics'] as const;

/** Profile settings (spec 000 §3, spec 001 §3). Saved as partial updates. */
export const Settings = z.strictObject({
  deviceColumns: z.array(DeviceColumnSetting).max(LIMITS.settingsColumns),
  showSidebar: z.boolean(),
  showDetails: z.boolean(),
  showRightSidebar: z.boolean(),
  leftSidebarWidth: z.number().int().min(SIDEBAR.left.min).max(SIDEBAR.left.max),
  rightSidebarWidth: z.number().int().min(SIDEBAR.right.min).max(2000),
  theme: Theme,
  wantsUsageReport: z.boolean(),
  viewMode: z.enum(VIEW_MODES),
  activeFilter: z.enum(ITEM_FILTERS),
  columns: z.array(ColumnSetting).max(LIMITS.settingsColumns),
  /** The admin user list's columns (spec 000 §2.7), saved like the device list's. */
  adminColumns: z.array(ColumnSetting).max(LIMITS.settingsColumns),
  /**
   * The layout of default widths `adminColumns` was saved on (the web client numbers them), saved
   * with it: a width equal to an earlier layout's default was left at that default, not chosen.
   * Absent: saved before layouts were numbered.
   */
  adminColumnsLayout: z.number().int().min(1).max(1000).optional(),
});
export type Settings = z.infer<typeof Settings>;

export const PartialSettings = Settings.partial();
export type PartialSettings = z.infer<typeof PartialSettings>;

export const DEFAULT_SETTINGS: Settings = {
  deviceColumns: [],
  showSidebar: true,
  showDetails: true,
  showRightSidebar: false,
  leftSidebarWidth: SIDEBAR.left.default,
  rightSidebarWidth: SIDEBAR.right.default,
  theme: 'default',
  wantsUsageReport: true,
  viewMode: 'table',
  activeFilter: 'all',
  columns: [],
  adminColumns: [],
};

export const SettingsBody = z.strictObject({ settings: PartialSettings });
export const SettingsResponse = z.object({ settings: Settings });
