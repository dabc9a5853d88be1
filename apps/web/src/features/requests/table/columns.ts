import { COLUMN_MIN_WIDTH, type ColumnSetting, type ItemSortColumn } from '@spyglass/protocol';

/**
 * The captured-item table's columns (spec 001 §3 'Log table columns (defaults)'): id 60, details
 * 400, createdAt 'Created' 120, type 100, level 100 shown; category and subsystem 120 hidden.
 * Status, duration and size of network items may be shown from the column menu. Every column is
 * a sort column of the protocol's `sort.ts`.
 */
export const TABLE_COLUMNS = [
  { id: 'id', label: 'ID', width: 60, isVisible: true, align: 'end' },
  { id: 'details', label: 'Details', width: 400, isVisible: true, align: 'start' },
  { id: 'createdAt', label: 'Created', width: 120, isVisible: true, align: 'start' },
  { id: 'type', label: 'Type', width: 100, isVisible: true, align: 'start' },
  { id: 'level', label: 'Level', width: 100, isVisible: true, align: 'start' },
  { id: 'category', label: 'Category', width: 120, isVisible: false, align: 'start' },
  { id: 'subsystem', label: 'Subsystem', width: 120, isVisible: false, align: 'start' },
  { id: 'status', label: 'Status', width: 80, isVisible: false, align: 'end' },
  { id: 'duration', label: 'Duration', width: 90, isVisible: false, align: 'end' },
  { id: 'size', label: 'Size', width: 90, isVisible: false, align: 'end' },
] as const satisfies ReadonlyArray<{ id: ItemSortColumn; label: string; width: number; isVisible: boolean; align: 'start' | 'end' }>;

export type TableColumnId = (typeof TABLE_COLUMNS)[number]['id'];

export interface TableColumn extends ColumnSetting {
  id: TableColumnId;
  align: 'start' | 'end';
}

/** Widths are whole pixels within these limits (the settings schema allows up to 5000). */
export const COLUMN_MAX_WIDTH = 2000;

const CATALOGUE = new Map<string, (typeof TABLE_COLUMNS)[number]>(TABLE_COLUMNS.map((c) => [c.id, c]));

export const defaultColumns = (): TableColumn[] => TABLE_COLUMNS.map((c) => ({ ...c }));

export const clampColumnWidth = (width: number) => Math.min(COLUMN_MAX_WIDTH, Math.max(COLUMN_MIN_WIDTH, Math.round(width)));

/**
 * The columns to show from the saved `columns` setting: its order, visibility and widths (at
 * least 60), the catalogue's labels. Columns it does not name are added with their defaults at
 * their catalogue place; ids that no longer exist are dropped. With nothing visible, the defaults.
 */
export function resolveColumns(saved: readonly ColumnSetting[]): TableColumn[] {
  const seen = new Set<string>();
  const columns: TableColumn[] = [];
  for (const setting of saved) {
    const known = CATALOGUE.get(setting.id);
    if (!known || seen.has(known.id)) continue;
    seen.add(known.id);
    columns.push({ ...known, isVisible: setting.isVisible, width: clampColumnWidth(setting.width) });
  }
  TABLE_COLUMNS.forEach((column, catalogueIndex) => {
    if (seen.has(column.id)) return;
    // After the saved column that precedes it in the catalogue, so a new column lands near its kin.
    const before = TABLE_COLUMNS.slice(0, catalogueIndex).map((c) => c.id);
    let at = 0;
    columns.forEach((c, i) => { if ((before as readonly string[]).includes(c.id)) at = i + 1; });
    columns.splice(at, 0, { ...column });
  });
  if (!columns.some((c) => c.isVisible)) return defaultColumns();
  return columns;
}

/** What the settings store: id, label, width, isVisible, in display order. */
export function toColumnSettings(columns: readonly TableColumn[]): ColumnSetting[] {
  return columns.map(({ id, label, width, isVisible }) => ({ id, label, width, isVisible }));
}

export function setColumnVisible(columns: readonly TableColumn[], id: TableColumnId, isVisible: boolean): TableColumn[] {
  // The last visible column stays: a table without columns has no header to bring them back from.
  if (!isVisible && columns.filter((c) => c.isVisible).every((c) => c.id === id)) return [...columns];
  return columns.map((c) => (c.id === id ? { ...c, isVisible } : c));
}

export function setColumnWidth(columns: readonly TableColumn[], id: TableColumnId, width: number): TableColumn[] {
  const clamped = clampColumnWidth(width);
  return columns.map((c) => (c.id === id ? { ...c, width: clamped } : c));
}

/** Moves a column to the place of `targetId` (header drag and drop). */
export function moveColumnTo(columns: readonly TableColumn[], id: TableColumnId, targetId: TableColumnId): TableColumn[] {
  const from = columns.findIndex((c) => c.id === id);
  const to = columns.findIndex((c) => c.id === targetId);
  if (from < 0 || to < 0 || from === to) return [...columns];
  const next = [...columns];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/**
 * Moves a column one place left (-1) or right (+1) among the visible columns (header menu):
 * hidden columns in between keep their relative place.
 */
export function moveColumnBy(columns: readonly TableColumn[], id: TableColumnId, delta: -1 | 1): TableColumn[] {
  const visible = columns.filter((c) => c.isVisible);
  const at = visible.findIndex((c) => c.id === id);
  const neighbour = visible[at + delta];
  if (at < 0 || !neighbour) return [...columns];
  return moveColumnTo(columns, id, neighbour.id);
}

export interface ColumnLayout {
  columns: TableColumn[];
  /** Rendered width of each visible column, in order. */
  widths: number[];
  /** Left edge of each visible column. */
  offsets: number[];
  /** Width of the rows: the container's, or more when the columns need more (horizontal scroll). */
  total: number;
}

/**
 * Spec 001 §3: the visible columns at their widths, the width left over in the container added
 * to the last visible column (never taken away from it).
 */
export function layoutColumns(columns: readonly TableColumn[], containerWidth: number): ColumnLayout {
  const visible = columns.filter((c) => c.isVisible);
  const widths = visible.map((c) => c.width);
  const sum = widths.reduce((a, b) => a + b, 0);
  const spare = Math.floor(containerWidth) - sum;
  if (spare > 0 && widths.length > 0) widths[widths.length - 1]! += spare;
  const offsets: number[] = [];
  let x = 0;
  for (const w of widths) {
    offsets.push(x);
    x += w;
  }
  return { columns: visible, widths, offsets, total: x };
}

/**
 * The layout's widths as custom properties of the table (`--req-w-<column>`, `--req-row-w`) that
 * request-table.css gives the cells and rows: rows arrive as fast as items do, and an inline width
 * on each cell was six style writes per new row.
 */
export function columnWidthVars(layout: ColumnLayout): Record<string, string> {
  const vars: Record<string, string> = { '--req-row-w': `${layout.total}px` };
  layout.columns.forEach((column, i) => {
    vars[`--req-w-${column.id}`] = `${layout.widths[i]}px`;
  });
  return vars;
}

/** A CSS grid template for the rows and the header of a layout. */
export function gridTemplate(layout: ColumnLayout): string {
  return layout.widths.map((w) => `${w}px`).join(' ');
}
