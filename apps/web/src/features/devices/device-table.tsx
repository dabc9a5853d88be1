import * as ContextMenu from '@radix-ui/react-context-menu';
import { Check } from 'lucide-react';
import { COLUMN_MIN_WIDTH, type Device } from '@spyglass/protocol';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { ResizeHandle } from '../../ui/resize-handle';
import { SortableHeader } from '../../ui/sortable-header';
import { useInnerWidth } from '../../ui/use-inner-width';
import { DeviceCell } from './device-cells';
import { COLUMN_MAX_WIDTH, fitDeviceColumns, setColumnVisible, setColumnWidth, type DeviceColumn } from './device-columns';
import type { DeviceSort } from './device-list';
import { clickRow, moveSelection, selectAll, type DeviceSelection } from './device-selection';

export interface DeviceTableProps {
  devices: readonly Device[];
  columns: readonly DeviceColumn[];
  onPreviewColumns(columns: DeviceColumn[]): void;
  onSaveColumns(columns: DeviceColumn[]): void;
  sort: DeviceSort;
  onSort(column: DeviceColumn['id']): void;
  selection: DeviceSelection;
  onSelection(selection: DeviceSelection): void;
  onOpen(device: Device): void;
}

/** Relative "Last Seen" times move on by themselves. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Spec 001 §5: list shortcuts are ignored while an input has focus (and inside menus, dialogs, tabs and resize handles). */
function isTypingOrInWidget(target: EventTarget | null): boolean {
  return target instanceof Element
    && target.closest('input, textarea, select, [contenteditable="true"], [role="separator"], [role="menu"], [role="dialog"], [role="tablist"]') !== null;
}

/** Enter on a focused button or link is that control's, not the list's. */
const ownsEnter = (target: EventTarget | null) => target instanceof Element && target.closest('button, a') !== null;

/**
 * The device table (spec 001 'Device list'): sortable, resizable columns whose header menu (right
 * click) shows or hides them; Up/Down move the selection, Ctrl/Cmd+A selects all, Ctrl/Cmd+click
 * adds a row, a plain click (or Enter) opens the device.
 */
export function DeviceTable({ devices, columns, onPreviewColumns, onSaveColumns, sort, onSort, selection, onSelection, onOpen }: DeviceTableProps) {
  const now = useNow(30_000);
  const body = useRef<HTMLTableSectionElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const visible = columns.filter((c) => c.isVisible);
  const widths = fitDeviceColumns(visible, useInnerWidth(box));
  const total = widths.reduce((sum, w) => sum + w, 0);
  const ids = devices.map((d) => d.id);

  // The row the keyboard reached stays in view.
  useEffect(() => {
    if (selection.anchor === null) return;
    body.current?.querySelector(`[data-device-id="${CSS.escape(selection.anchor)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selection.anchor]);

  function onKeyDown(event: globalThis.KeyboardEvent) {
    if (event.defaultPrevented || isTypingOrInWidget(event.target)) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      onSelection(moveSelection(selection, ids, event.key === 'ArrowDown' ? 1 : -1));
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      onSelection(selectAll(selection, ids));
    } else if (event.key === 'Enter' && selection.anchor !== null && !ownsEnter(event.target)) {
      const device = devices.find((d) => d.id === selection.anchor);
      if (device) onOpen(device);
    }
  }

  // The list's keys work wherever the focus is on the page, except where typing or another widget owns them.
  const keyHandler = useRef(onKeyDown);
  useEffect(() => {
    keyHandler.current = onKeyDown;
  });
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => keyHandler.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  function onRowClick(event: MouseEvent, device: Device) {
    const toggle = event.ctrlKey || event.metaKey;
    onSelection(clickRow(selection, device.id, toggle));
    if (!toggle) onOpen(device);
  }

  return (
    <div ref={box} className="device-table-wrap" tabIndex={0} aria-label="Devices table: Up and Down select, Enter opens">
      <table
        className="device-table"
        role="grid"
        aria-multiselectable="true"
        aria-rowcount={devices.length + 1}
        style={{ width: `max(100%, ${total}px)` }}
      >
        <colgroup>
          {/* The last column takes the width left over. */}
          {visible.map((column, i) => <col key={column.id} style={i === visible.length - 1 ? undefined : { width: widths[i] }} />)}
        </colgroup>
        <ContextMenu.Root>
          <ContextMenu.Trigger asChild>
            <thead>
              <tr>
                {visible.map((column, i) => {
                  return (
                    <SortableHeader
                      key={column.id}
                      as="th"
                      className={`device-th-${column.id}`}
                      label={column.label}
                      sorted={sort.column === column.id ? sort.direction : null}
                      onSort={() => onSort(column.id)}
                      buttonClassName="device-th-button"
                      textClassName="cell-text"
                      buttonProps={{ title: column.label }}
                    >
                      <ResizeHandle
                        edge="right"
                        label={`Resize column ${column.label}`}
                        size={widths[i]!}
                        min={COLUMN_MIN_WIDTH}
                        max={COLUMN_MAX_WIDTH}
                        onResize={(width) => onPreviewColumns(setColumnWidth(columns, column.id, width))}
                        onCommit={(width) => onSaveColumns(setColumnWidth(columns, column.id, width))}
                      />
                    </SortableHeader>
                  );
                })}
              </tr>
            </thead>
          </ContextMenu.Trigger>
          <ContextMenu.Portal>
            <ContextMenu.Content className="menu" aria-label="Columns">
              <ContextMenu.Label className="menu-label">Columns</ContextMenu.Label>
              {columns.map((column) => (
                <ContextMenu.CheckboxItem
                  key={column.id}
                  className="menu-item"
                  checked={column.isVisible}
                  onCheckedChange={(checked) => onSaveColumns(setColumnVisible(columns, column.id, checked))}
                  onSelect={(event) => event.preventDefault()}
                >
                  <span className="menu-check"><ContextMenu.ItemIndicator><Check size={13} aria-hidden="true" /></ContextMenu.ItemIndicator></span>
                  {column.label}
                </ContextMenu.CheckboxItem>
              ))}
            </ContextMenu.Content>
          </ContextMenu.Portal>
        </ContextMenu.Root>
        <tbody ref={body}>
          {devices.map((device) => {
            const selected = selection.selected.has(device.id);
            return (
              <tr
                key={device.id}
                data-device-id={device.id}
                aria-selected={selected}
                className={[selected && 'is-selected', !device.online && 'is-offline'].filter(Boolean).join(' ') || undefined}
                onClick={(event) => onRowClick(event, device)}
              >
                {visible.map((column) => (
                  <td key={column.id} className={`device-td-${column.id}`}>
                    <DeviceCell device={device} column={column.id} now={now} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
