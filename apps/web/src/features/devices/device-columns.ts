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
 * The order in which columns still at their default width give way when the defaults do not fit
 * (they add up to 1350 px: 1280 px with the right sidebar leave the table 690), and how far. The
 * list is read by a device's name, when it was last seen and the SDK to update to, so the others go
 * down to the 60 px minimum first, together; then Last Seen, the SDK and the name, one after the
 * other, down to what they show. Measured in Chromium (13 px text, 10 px padding a side): names of
 * the simulator's kind ('Fatima's Google 2', bold) 94-116 px, whole from 136; 'just now' 55 px,
 * '12 min ago' 66, a date a week old 80, the header 'Last Seen' with its sort arrow on one line
 * from about 95; '⚠ 1.4.532' 68 px. At 690 px that leaves the name 140 px; beside a 15 px scroll
 * bar 125. Squeezed in proportion instead, every cell of the nine was cut at 690 px ('Ana's…',
 * 'just n…', '⚠ 1…').
 */
export const GIVE_WAY: ReadonlyArray<{ ids: readonly DeviceColumnId[]; floor: number }> = [
  { ids: ['model', 'bundleId', 'group', 'systemVersion', 'id'], floor: COLUMN_MIN_WIDTH },
  { ids: ['lastSeen'], floor: 100 },
  { ids: ['sdkVersion'], floor: 90 },
  { ids: ['name'], floor: 120 },
];

/**
 * The widths to draw the visible columns at in `available` pixels: the columns still at their
 * default give way tier after tier (GIVE_WAY), each tier's in proportion to their widths; the
 * widths the user dragged stay. When even the last tier at its floor does not fit (a phone, or the
 * user's own widths), nothing is squeezed: the table scrolls sideways with every column at its
 * width (ui/fit-columns.ts), readable.
 */
export function fitDeviceColumns(visible: readonly DeviceColumn[], available: number): number[] {
  const widths = visible.map((c) => c.width);
  let over = widths.reduce((sum, w) => sum + w, 0) - available;
  for (const tier of GIVE_WAY) {
    if (over <= 0) break;
    const members = visible.flatMap((c, i) => (tier.ids.includes(c.id) && c.width === DEFAULTS.get(c.id)?.width && c.width > tier.floor ? [i] : []));
    const own = members.reduce((sum, i) => sum + widths[i]!, 0);
    const room = own - members.length * tier.floor;
    if (room <= 0) continue;
    const shed = Math.min(over, room);
    const fitted = fitColumnWidths(members.map((i) => ({ width: widths[i]!, flexible: true })), own - shed, tier.floor);
    members.forEach((i, k) => (widths[i] = fitted[k]!));
    over -= own - fitted.reduce((sum, w) => sum + w, 0);
  }
  return over > 0 ? visible.map((c) => c.width) : widths;
}
