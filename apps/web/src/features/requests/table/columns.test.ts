import { describe, expect, it } from 'vitest';
import {
  COLUMN_MAX_WIDTH, columnWidthVars, defaultColumns, layoutColumns, moveColumnBy, moveColumnTo, resolveColumns, setColumnVisible, setColumnWidth, toColumnSettings,
} from './columns';

const ids = (columns: { id: string }[]) => columns.map((c) => c.id);
const visibleIds = (columns: { id: string; isVisible: boolean }[]) => ids(columns.filter((c) => c.isVisible));

describe('table columns', () => {
  it('defaults to the log columns of spec 001 §3', () => {
    const columns = defaultColumns();
    expect(visibleIds(columns)).toEqual(['id', 'details', 'createdAt', 'type', 'level']);
    expect(columns.find((c) => c.id === 'createdAt')!.label).toBe('Created');
    expect(Object.fromEntries(columns.map((c) => [c.id, [c.width, c.isVisible]]))).toMatchObject({
      id: [60, true], details: [400, true], createdAt: [120, true], type: [100, true], level: [100, true], category: [120, false], subsystem: [120, false],
    });
    expect(resolveColumns([])).toEqual(columns);
  });

  it('restores saved order, visibility and widths; clamps widths to at least 60; drops unknown ids; adds new columns', () => {
    const saved = [
      { id: 'type', label: 'Old label', width: 10, isVisible: true },
      { id: 'id', label: 'ID', width: 70, isVisible: true },
      { id: 'gone', label: 'Gone', width: 100, isVisible: true },
      { id: 'details', label: 'Details', width: 9000, isVisible: true },
      { id: 'id', label: 'ID', width: 300, isVisible: false },
    ];
    const columns = resolveColumns(saved);
    expect(ids(columns).slice(0, 3)).toEqual(['type', 'id', 'details']);
    expect(columns[0]).toMatchObject({ id: 'type', label: 'Type', width: 60, isVisible: true });
    expect(columns[1]).toMatchObject({ id: 'id', width: 70, isVisible: true });
    expect(columns[2]!.width).toBe(COLUMN_MAX_WIDTH);
    expect(ids(columns)).not.toContain('gone');
    // Every catalogue column is there exactly once, new ones near their catalogue neighbours.
    expect([...ids(columns)].sort()).toEqual(ids(defaultColumns()).sort());
    expect(ids(columns).indexOf('createdAt')).toBe(ids(columns).indexOf('details') + 1);
  });

  it('falls back to the defaults when nothing would be visible', () => {
    const hidden = toColumnSettings(defaultColumns()).map((c) => ({ ...c, isVisible: false }));
    expect(resolveColumns(hidden)).toEqual(defaultColumns());
  });

  it('round-trips through the settings shape', () => {
    const columns = setColumnWidth(moveColumnTo(defaultColumns(), 'level', 'id'), 'details', 512);
    expect(resolveColumns(toColumnSettings(columns))).toEqual(columns);
    expect(Object.keys(toColumnSettings(columns)[0]!).sort()).toEqual(['id', 'isVisible', 'label', 'width']);
  });

  it('keeps the last visible column visible', () => {
    let columns = defaultColumns();
    for (const id of ['id', 'details', 'createdAt', 'type'] as const) columns = setColumnVisible(columns, id, false);
    expect(visibleIds(columns)).toEqual(['level']);
    expect(visibleIds(setColumnVisible(columns, 'level', false))).toEqual(['level']);
    expect(visibleIds(setColumnVisible(columns, 'status', true))).toEqual(['level', 'status']);
  });

  it('resizes within 60 and the maximum, in whole pixels', () => {
    expect(setColumnWidth(defaultColumns(), 'details', 12).find((c) => c.id === 'details')!.width).toBe(60);
    expect(setColumnWidth(defaultColumns(), 'details', 250.6).find((c) => c.id === 'details')!.width).toBe(251);
    expect(setColumnWidth(defaultColumns(), 'details', 1e6).find((c) => c.id === 'details')!.width).toBe(COLUMN_MAX_WIDTH);
  });

  it('reorders by drop target and by one visible place, hidden columns staying put', () => {
    expect(ids(moveColumnTo(defaultColumns(), 'type', 'id')).slice(0, 3)).toEqual(['type', 'id', 'details']);
    expect(ids(moveColumnTo(defaultColumns(), 'id', 'level')).slice(0, 5)).toEqual(['details', 'createdAt', 'type', 'level', 'id']);
    // level is the last visible one; category/subsystem (hidden) follow it.
    const moved = moveColumnBy(defaultColumns(), 'level', 1);
    expect(ids(moved)).toEqual(ids(defaultColumns()));
    expect(visibleIds(moveColumnBy(defaultColumns(), 'level', -1))).toEqual(['id', 'details', 'createdAt', 'level', 'type']);
    expect(visibleIds(moveColumnBy(defaultColumns(), 'id', -1))).toEqual(['id', 'details', 'createdAt', 'type', 'level']);
    const withStatus = setColumnVisible(defaultColumns(), 'status', true);
    // Across the hidden category and subsystem in one step.
    expect(visibleIds(moveColumnBy(withStatus, 'status', -1))).toEqual(['id', 'details', 'createdAt', 'type', 'status', 'level']);
  });

  it('gives the spare width to the last visible column and never takes from it', () => {
    const columns = defaultColumns();
    const wide = layoutColumns(columns, 1000);
    expect(wide.widths).toEqual([60, 400, 120, 100, 1000 - 680]);
    expect(wide.offsets).toEqual([0, 60, 460, 580, 680]);
    expect(wide.total).toBe(1000);
    const narrow = layoutColumns(columns, 500);
    expect(narrow.widths).toEqual([60, 400, 120, 100, 100]);
    expect(narrow.total).toBe(780);
    expect(layoutColumns(columns, 0).total).toBe(780);
    const reordered = layoutColumns(moveColumnTo(columns, 'details', 'level'), 1000);
    expect(reordered.columns.at(-1)!.id).toBe('details');
    expect(reordered.widths.at(-1)).toBe(1000 - 380);
  });

  it('gives the layout to the rows as custom properties: each shown column its width, the row the total', () => {
    const layout = layoutColumns(setColumnVisible(defaultColumns(), 'status', true), 1000);
    expect(columnWidthVars(layout)).toEqual({
      '--req-row-w': '1000px',
      '--req-w-id': '60px',
      '--req-w-details': '400px',
      '--req-w-createdAt': '120px',
      '--req-w-type': '100px',
      '--req-w-level': '100px',
      '--req-w-status': `${1000 - 780}px`,
    });
  });
});
