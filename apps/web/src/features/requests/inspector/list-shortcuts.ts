import type { InspectorMode } from './inspector-mode';

/** What a key press asks of the request list (spec 001 §4 'Selection', §5 'Shortcuts'). */
export type ListShortcut =
  | { type: 'move'; delta: -1 | 1 }
  | { type: 'selectAll' }
  | { type: 'closeDetails' }
  | { type: 'deleteSelected' };

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** The element the key went to. */
  target: EventTarget | null;
}

/**
 * Where keys belong to something else: typing (spec 001 §5: shortcuts are ignored while an input
 * has focus) and widgets with their own keys (menus, dialogs, tabs, resize handles, buttons' Enter).
 */
const OWNED_BY_WIDGET = 'input, textarea, select, [contenteditable="true"], [contenteditable=""], [role="separator"], [role="menu"], [role="menuitem"], [role="dialog"], [role="tablist"], [role="slider"], .cm-editor';

/** An element, or anything that answers `closest` like one. */
interface Closest {
  closest(selectors: string): unknown;
}

const hasClosest = (target: unknown): target is Closest =>
  typeof target === 'object' && target !== null && typeof (target as Partial<Closest>).closest === 'function';

export function isTypingOrInWidget(target: EventTarget | null): boolean {
  return hasClosest(target) && target.closest(OWNED_BY_WIDGET) !== null;
}

/**
 * The list's action for a key press, or null when the key is not the list's:
 * - ArrowUp / ArrowDown move a single selection (rows are read top to bottom);
 * - Ctrl/Meta+A selects every shown row;
 * - Escape closes the details panel;
 * - Delete and Backspace delete the selection, only where rows may be deleted (a device, not a
 *   session: spec 001 §5 'Backspace deletes only outside session views', §6 'Session views hide
 *   row delete'), and only without modifiers (Cmd+Backspace is the browser's).
 */
export function listShortcut(press: KeyPress, mode: InspectorMode): ListShortcut | null {
  if (isTypingOrInWidget(press.target)) return null;
  const command = press.ctrlKey || press.metaKey;
  if (command && !press.altKey && !press.shiftKey && press.key.toLowerCase() === 'a') return { type: 'selectAll' };
  if (command || press.altKey) return null;
  switch (press.key) {
    case 'ArrowDown': return press.shiftKey ? null : { type: 'move', delta: 1 };
    case 'ArrowUp': return press.shiftKey ? null : { type: 'move', delta: -1 };
    case 'Escape': return { type: 'closeDetails' };
    case 'Delete':
    case 'Backspace':
      return mode === 'device' && !press.shiftKey ? { type: 'deleteSelected' } : null;
    default: return null;
  }
}
