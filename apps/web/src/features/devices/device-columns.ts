import { COLUMN_MIN_WIDTH, type DeviceColumnSetting } from '@spyglass/protocol';
import { fitColumnWidths } from '../../ui/fit-columns';

/** Spec 001 §2 and §9: the device list's columns and their default widths, in order. */
export const DEVICE_COLUMNS = [
  { id: 'status', label: 'Status', width: 60 },
  { id: 'model', label: 'Device Model', width: 200 },
  { id: 'name', label: 'Device Name', width: 150 },
  { id: 'bundleId', label: 'Bundle ID', width: 250 },
  { id: 'group', label: 'Group', width: 120 },
  { id: 'systemVersion', label: 'OS', width: 120 },
  { id: 'id', label: 'ID', width: 200 },
  { id: 'lastSeen', label: 'Last Seen', width: 150 },
  { id: 'sdkVersion', label: 'SDK', width: 100 },
] as const;

export type DeviceColumnId = (typeof DEVICE_COLUMNS)[number]['id'];

export interface DeviceColumn extends DeviceColumnSetting {
  id: DeviceColumnId;
}

export const COLUMN_MAX_WIDTH = 2000;

const DEFAULTS = new Map<string, (typeof DEVICE_COLUMNS)[number]>(DEVICE_COLUMNS.map((c) => [c.id, c]));

export const defaultDeviceColumns = (): DeviceColumn[] => DEVICE_COLUMNS.map((c) => ({ ...c, isVisible: true }));

/**
 * The columns to show from the saved `deviceColumns` setting: its order, visibility and widths
 * (at least 60), the catalogue's labels; columns it does not name are appended with their
 * defaults, ids it names that no longer exist are dropped. With nothing visible, all columns show.
 */
export function resolveDeviceColumns(saved: readonly DeviceColumnSetting[]): DeviceColumn[] {
  const seen = new Set<string>();
  const columns: DeviceColumn[] = [];
  for (const setting of saved) {
    const known = DEFAULTS.get(setting.id);
    if (!known || seen.has(known.id)) continue;
    seen.add(known.id);
    columns.push({
      id: known.id,
      label: known.label,
      isVisible: setting.isVisible,
      width: Math.min(COLUMN_MAX_WIDTH, Math.max(COLUMN_MIN_WIDTH, Math.round(setting.width))),
    });
  }
  for (const column of DEVICE_COLUMNS) {
    if (!seen.has(column.id)) columns.push({ ...column, isVisible: true });
  }
  if (!columns.some((c) => c.isVisible)) return defaultDeviceColumns();
  return columns;
}

export function setColumnVisible(columns: readonly DeviceColumn[], id: DeviceColumnId, isVisible: boolean): DeviceColumn[] {
  // The last visible column stays: a table without columns could not be brought back by its header menu.
  if (!isVisible && columns.filter((c) => c.isVisible).every((c) => c.id === id)) return [...columns];
  return columns.map((c) => (c.id === id ? { ...c, isVisible } : c));
}

export function setColumnWidth(columns: readonly DeviceColumn[], id: DeviceColumnId, width: number): DeviceColumn[] {
  const clamped = Math.min(COLUMN_MAX_WIDTH, Math.max(COLUMN_MIN_WIDTH, Math.round(width)));
  return columns.map((c) => (c.id === id ? { ...c, width: clamped } : c));
}

/**
 * The widths to draw the visible columns at in `available` pixels: the spec's defaults add up to
 * 1350 px, more than a 1440 px screen leaves beside the sidebar, so the columns still at their
 * default give way (ui/fit-columns.ts) and the widths the user dragged stay.
 */
export const fitDeviceColumns = (visible: readonly DeviceColumn[], available: number): number[] =>
  fitColumnWidths(visible.map((c) => ({ width: c.width, flexible: c.width === DEFAULTS.get(c.id)?.width })), available, COLUMN_MIN_WIDTH);
