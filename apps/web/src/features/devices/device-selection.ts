/** Row selection of the device list (spec 001 'Device list' keys), by device id. */
export interface DeviceSelection {
  selected: ReadonlySet<string>;
  /** The row the keyboard moves from: the last one clicked or reached. */
  anchor: string | null;
}

export const EMPTY_SELECTION: DeviceSelection = { selected: new Set(), anchor: null };

/** A plain click selects only the row; Ctrl/Cmd+click adds or removes it. */
export function clickRow(selection: DeviceSelection, id: string, toggle: boolean): DeviceSelection {
  if (!toggle) return { selected: new Set([id]), anchor: id };
  const selected = new Set(selection.selected);
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  return { selected, anchor: id };
}

/** Up/Down: a single selection one row further (from the first or last row when nothing is selected). */
export function moveSelection(selection: DeviceSelection, ids: readonly string[], delta: 1 | -1): DeviceSelection {
  if (ids.length === 0) return EMPTY_SELECTION;
  const from = selection.anchor === null ? -1 : ids.indexOf(selection.anchor);
  const index = from < 0 ? (delta > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, from + delta));
  const id = ids[index]!;
  return { selected: new Set([id]), anchor: id };
}

/** Ctrl/Cmd+A: every row shown. */
export function selectAll(selection: DeviceSelection, ids: readonly string[]): DeviceSelection {
  return { selected: new Set(ids), anchor: selection.anchor ?? ids[0] ?? null };
}

/** Rows that left the list (a search, a deletion) leave the selection too. */
export function keepShown(selection: DeviceSelection, ids: readonly string[]): DeviceSelection {
  const shown = new Set(ids);
  if ([...selection.selected].every((id) => shown.has(id)) && (selection.anchor === null || shown.has(selection.anchor))) return selection;
  return {
    selected: new Set([...selection.selected].filter((id) => shown.has(id))),
    anchor: selection.anchor !== null && shown.has(selection.anchor) ? selection.anchor : null,
  };
}
