import { useQueryClient } from '@tanstack/react-query';
import { Plus, RefreshCw, Search, Trash2 } from 'lucide-react';
import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Device, UserDefaultsGroup, UserDefaultValue } from '@spyglass/protocol';
import { errorMessage } from '../../lib/api';
import { Button } from '../../ui/button';
import { ResizeHandle } from '../../ui/resize-handle';
import { AddEntryDialog } from './add-entry-dialog';
import { CONSOLE_HEIGHT, ConsolePanel, type ConsoleLine } from './console-panel';
import { JsonValueDialog } from './json-value-dialog';
import {
  deleteUserDefault, renameUserDefault, setUserDefault, userDefaultsKey, useUserDefaults, useUserDefaultsSync,
} from './user-defaults.api';
import { rowId, rowsOf, valueFromText, valueJson, valueText, visibleRows, type UserDefaultRow } from './user-defaults-rows';
import './user-defaults.css';

/** Spec 002 §9: columns at least 100 px; Name 200, Key 250, Value 350 by default. */
const MIN_COLUMN = 100;
const COLUMNS = [
  { field: 'name', label: 'Name', width: 200 },
  { field: 'key', label: 'Key', width: 250 },
  { field: 'value', label: 'Value', width: 350 },
] as const;
type Field = (typeof COLUMNS)[number]['field'];

const countText = (groups: readonly UserDefaultsGroup[]) => {
  const entries = groups.reduce((n, group) => n + group.entries.length, 0);
  return `${entries} ${entries === 1 ? 'entry' : 'entries'} in ${groups.length} ${groups.length === 1 ? 'group' : 'groups'}`;
};

/**
 * /devices/{id}/user-defaults (spec 002 'User defaults view'): the device's key-value preferences
 * as a table (Name, Key, Value), searchable, edited in place, with a console of what was done.
 * Everything is read from and written to the device itself (through the server's relay).
 */
export function UserDefaultsView({ device }: { device: Device }) {
  const queryClient = useQueryClient();
  const defaults = useUserDefaults(device.id);
  const [query, setQuery] = useState('');
  const [widths, setWidths] = useState<Record<Field, number>>({ name: 200, key: 250, value: 350 });
  const [consoleHeight, setConsoleHeight] = useState<number>(CONSOLE_HEIGHT.initial);
  const [lines, setLines] = useState<ConsoleLine[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [jsonRow, setJsonRow] = useState<{ row: UserDefaultRow; text: string } | null>(null);

  const log = useCallback((message: string, isError = false) => {
    setLines((current) => [...current, { time: new Date().toISOString(), message, isError }]);
  }, []);
  useUserDefaultsSync(device.id, (groups) => log(`Changed on the device: ${countText(groups)}`));

  const rows = useMemo(() => visibleRows(rowsOf(defaults.data ?? []), query), [defaults.data, query]);

  /** Runs one call; the device's answer replaces the table. Answers whether it succeeded. */
  const write = async (action: () => Promise<{ groups: UserDefaultsGroup[] }>, done: string, failure: 'Failed to update value' | 'Failed to delete value') => {
    setProblem(null);
    try {
      const { groups } = await action();
      queryClient.setQueryData(userDefaultsKey(device.id), groups);
      log(done);
      return true;
    } catch (error) {
      setProblem(failure);
      log(`${failure}: ${errorMessage(error, failure)}`, true);
      return false;
    }
  };

  const [adding, setAdding] = useState(false);
  const add = async (name: string, key: string, value: UserDefaultValue) => {
    const added = await write(() => setUserDefault(device.id, name, key, value), `Added ${name} / ${key} = ${valueText(value)}`, 'Failed to update value');
    if (added) setAdding(false);
    return added;
  };

  const saveValue = (row: UserDefaultRow, value: UserDefaultValue) =>
    write(() => setUserDefault(device.id, row.name, row.key, value), `Updated ${row.name} / ${row.key} = ${valueText(value)}`, 'Failed to update value');

  /** Spec 002 §4: a changed key deletes the old entry, then writes the new one; a changed name or value updates. */
  const commit = (row: UserDefaultRow, field: Field, text: string) => {
    if (field === 'key') {
      if (text === '' || text === row.key) return;
      void write(() => renameUserDefault(device.id, row.name, row.key, text, row.value), `Renamed ${row.name} / ${row.key} to ${text}`, 'Failed to update value');
    } else if (field === 'name') {
      if (text === '' || text === row.name) return;
      void write(() => setUserDefault(device.id, text, row.key, row.value), `Updated ${text} / ${row.key}`, 'Failed to update value');
    } else {
      const value = valueFromText(text, row.value);
      if (JSON.stringify(value) === JSON.stringify(row.value)) return;
      void saveValue(row, value);
    }
  };

  // The rows whose delete is on its way: a second click (a double-click) must not send it again.
  const deletingRef = useRef(new Set<string>());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  const remove = async (row: UserDefaultRow) => {
    const id = rowId(row);
    if (deletingRef.current.has(id)) return;
    deletingRef.current.add(id);
    setDeleting(new Set(deletingRef.current));
    await write(() => deleteUserDefault(device.id, row.name, row.key), `Deleted ${row.name} / ${row.key}`, 'Failed to delete value');
    deletingRef.current.delete(id);
    setDeleting(new Set(deletingRef.current));
  };

  const reload = async () => {
    const result = await defaults.refetch();
    if (result.data) log(`Loaded ${countText(result.data)}`);
    else if (result.error) log(`Failed to load user defaults: ${result.error.message}`, true);
  };

  const gridTemplate = `${widths.name}px ${widths.key}px minmax(${widths.value}px, 1fr) 44px`;

  return (
    <div className="ud-view">
      <div className="ud-head">
        <h1 className="ud-title">User Defaults</h1>
        <label className="ud-search">
          <Search size={14} aria-hidden="true" />
          <input type="search" placeholder="Search" aria-label="Search user defaults" value={query} onChange={(event) => setQuery(event.target.value)} />
        </label>
        <button type="button" className="icon-btn" aria-label="Reload user defaults" title="Reload" onClick={() => void reload()}>
          <RefreshCw size={15} aria-hidden="true" />
        </button>
        <Button size="sm" variant="primary" icon={<Plus size={14} aria-hidden="true" />} disabled={!defaults.isSuccess} onClick={() => setAdding(true)}>Add</Button>
      </div>
      {problem && <p className="ud-inline-error" role="alert">{problem}</p>}

      <div className="ud-table-scroll">
        <div className="ud-table" role="table" aria-label="User defaults" aria-rowcount={rows.length + 1}>
          <div className="ud-row ud-header" role="row" style={{ gridTemplateColumns: gridTemplate }}>
            {COLUMNS.map((column) => (
              <div key={column.field} className="ud-cell ud-header-cell" role="columnheader" aria-sort={column.field === 'name' ? 'ascending' : undefined}>
                {column.label}
                <ResizeHandle
                  edge="right" size={widths[column.field]} min={MIN_COLUMN} max={Number.POSITIVE_INFINITY} label={`Resize ${column.label} column`}
                  onResize={(width) => setWidths((current) => ({ ...current, [column.field]: width }))}
                />
              </div>
            ))}
            <div className="ud-cell" role="columnheader" aria-label="Actions" />
          </div>
          {defaults.isPending ? (
            <div className="ud-state">Loading...</div>
          ) : defaults.isError ? (
            <div className="ud-state ud-inline-error" role="alert">Failed to load user defaults<span className="ud-state-detail">{defaults.error.message}</span></div>
          ) : rows.length === 0 ? (
            <div className="ud-state">No User Defaults</div>
          ) : rows.map((row) => (
            <div key={rowId(row)} className="ud-row" role="row" style={{ gridTemplateColumns: gridTemplate }}>
              {COLUMNS.map((column) => (
                <EditableCell
                  key={column.field}
                  label={`${column.label} of ${row.name} / ${row.key}`}
                  text={column.field === 'value' ? valueText(row.value) : row[column.field]}
                  onCommit={(text) => commit(row, column.field, text)}
                  onJson={column.field === 'value' ? (text) => setJsonRow({ row, text: valueJson(valueFromText(text, row.value)) }) : undefined}
                />
              ))}
              <div className="ud-cell ud-actions" role="cell">
                <button
                  type="button" className="icon-btn" aria-label={`Delete ${row.name} / ${row.key}`} title="Delete"
                  disabled={deleting.has(rowId(row))} aria-busy={deleting.has(rowId(row))} onClick={() => void remove(row)}
                >
                  <Trash2 size={14} aria-hidden="true" />
                </button>
              </div>
            </div>
          ))}
        </div>
      </div>

      <ConsolePanel lines={lines} height={consoleHeight} onResize={setConsoleHeight} />
      {adding && <AddEntryDialog rows={rowsOf(defaults.data ?? [])} onAdd={add} onCancel={() => setAdding(false)} />}
      {jsonRow && (
        <JsonValueDialog
          title={`${jsonRow.row.name} / ${jsonRow.row.key}`}
          initial={jsonRow.text}
          onCancel={() => setJsonRow(null)}
          onSave={(value) => {
            setJsonRow(null);
            if (JSON.stringify(value) !== JSON.stringify(jsonRow.row.value)) void saveValue(jsonRow.row, value);
          }}
        />
      )}
    </div>
  );
}

/**
 * A cell that a double-click turns into a field (spec 002: double-click to edit). Leaving the field
 * or Enter saves, Escape cancels. In the value field, holding meta or ctrl opens the JSON modal.
 */
function EditableCell({ label, text, onCommit, onJson }: { label: string; text: string; onCommit(text: string): void; onJson?: (draft: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  // Set once an edit is settled, so the blur of the field going away cannot save it a second time.
  const settled = useRef(false);
  const start = () => {
    settled.current = false;
    setDraft(text);
  };
  const finish = (save: boolean) => {
    if (draft === null || settled.current) return;
    settled.current = true;
    setDraft(null);
    if (save) onCommit(draft);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.currentTarget.blur();
    else if (event.key === 'Escape') finish(false);
    else if (onJson && (event.key === 'Meta' || event.key === 'Control')) {
      event.preventDefault();
      const current = draft ?? text;
      finish(false);
      onJson(current);
    }
  };
  return (
    <div className="ud-cell" role="cell" title={draft === null ? text : undefined} onDoubleClick={() => draft === null && start()}>
      {draft === null ? (
        <span className="ud-cell-text">{text}</span>
      ) : (
        <input
          className="ud-cell-input"
          aria-label={label}
          value={draft}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => finish(true)}
          onKeyDown={onKeyDown}
        />
      )}
    </div>
  );
}
