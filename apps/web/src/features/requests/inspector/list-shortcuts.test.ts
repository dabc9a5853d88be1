import { describe, expect, it } from 'vitest';
import { listShortcut, type KeyPress } from './list-shortcuts';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target: null, ...extra,
});

describe('list shortcuts (spec 001 §4, §5)', () => {
  it('moves a single selection with the arrows', () => {
    expect(listShortcut(press('ArrowDown'), 'device')).toEqual({ type: 'move', delta: 1 });
    expect(listShortcut(press('ArrowUp'), 'session')).toEqual({ type: 'move', delta: -1 });
    expect(listShortcut(press('ArrowUp', { altKey: true }), 'device')).toBeNull();
  });

  it('selects all with Ctrl+A or Meta+A, in every mode', () => {
    for (const mode of ['device', 'session', 'public'] as const) {
      expect(listShortcut(press('a', { ctrlKey: true }), mode)).toEqual({ type: 'selectAll' });
      expect(listShortcut(press('A', { metaKey: true }), mode)).toEqual({ type: 'selectAll' });
    }
    expect(listShortcut(press('a'), 'device')).toBeNull();
    expect(listShortcut(press('a', { ctrlKey: true, shiftKey: true }), 'device')).toBeNull();
  });

  it('closes the details with Escape', () => {
    expect(listShortcut(press('Escape'), 'public')).toEqual({ type: 'closeDetails' });
  });

  it('deletes with Delete and Backspace only for a device, never in session views', () => {
    expect(listShortcut(press('Delete'), 'device')).toEqual({ type: 'deleteSelected' });
    expect(listShortcut(press('Backspace'), 'device')).toEqual({ type: 'deleteSelected' });
    for (const mode of ['session', 'public'] as const) {
      expect(listShortcut(press('Delete'), mode)).toBeNull();
      expect(listShortcut(press('Backspace'), mode)).toBeNull();
    }
    // Cmd+Backspace and Ctrl+Delete are the browser's and the system's.
    expect(listShortcut(press('Backspace', { metaKey: true }), 'device')).toBeNull();
    expect(listShortcut(press('Delete', { ctrlKey: true }), 'device')).toBeNull();
  });

  it('ignores every shortcut while an input (or a menu, dialog, editor) has the focus', () => {
    /** An element inside the first element matching one of `inside`. */
    const within = (...inside: string[]) => ({ closest: (selectors: string) => (selectors.split(', ').some((s) => inside.includes(s)) ? {} : null) }) as unknown as EventTarget;
    for (const target of [within('input'), within('textarea'), within('[role="dialog"]'), within('[role="menu"]'), within('.cm-editor')]) {
      for (const key of ['ArrowDown', 'ArrowUp', 'Escape', 'Delete', 'Backspace']) expect(listShortcut(press(key, { target }), 'device')).toBeNull();
      expect(listShortcut(press('a', { ctrlKey: true, target }), 'device')).toBeNull();
    }
    expect(listShortcut(press('Delete', { target: within('button') }), 'device')).toEqual({ type: 'deleteSelected' });
  });

  it('ignores other keys', () => {
    expect(listShortcut(press('Enter'), 'device')).toBeNull();
    expect(listShortcut(press('x', { ctrlKey: true }), 'device')).toBeNull();
  });
});
