import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_TOGGLES, type Device, type ViewerOutbound } from '@spyglass/protocol';
import { applyDeviceStatus, removeDevice, replaceDevice } from './device-cache';
import { defaultDeviceColumns, fitDeviceColumns, resolveDeviceColumns, setColumnVisible, setColumnWidth } from './device-columns';
import { DEFAULT_DEVICE_SORT, matchesDeviceSearch, osLabel, relativeTime, sortDevices, toggleDeviceSort } from './device-list';
import { clickRow, EMPTY_SELECTION, keepShown, moveSelection, selectAll } from './device-selection';

function device(id: string, patch: Partial<Device> = {}): Device {
  return {
    id, name: `Phone ${id}`, platform: 'ios', online: false, lastSeen: '2026-11-01T10:00:00.000Z', createdAt: '2026-11-01T09:00:00.000Z',
    featureToggles: DEFAULT_FEATURE_TOGGLES, breakpointEnabled: false, ...patch,
  };
}

describe('device columns', () => {
  it('default to the spec widths, all visible', () => {
    expect(defaultDeviceColumns().map((c) => `${c.id}:${c.width}`)).toEqual([
      'status:60', 'model:200', 'name:150', 'bundleId:250', 'group:120', 'systemVersion:120', 'id:200', 'lastSeen:150', 'sdkVersion:100',
    ]);
  });

  it('follow the saved order, visibility and widths; drop unknown ids and append missing columns', () => {
    const columns = resolveDeviceColumns([
      { id: 'name', label: 'old label', isVisible: true, width: 300 },
      { id: 'gone', label: 'Gone', isVisible: true, width: 100 },
      { id: 'status', label: 'Status', isVisible: false, width: 60 },
    ]);
    expect(columns.slice(0, 3)).toEqual([
      { id: 'name', label: 'Device Name', isVisible: true, width: 300 },
      { id: 'status', label: 'Status', isVisible: false, width: 60 },
      { id: 'model', label: 'Device Model', isVisible: true, width: 200 },
    ]);
    expect(columns).toHaveLength(9);
  });

  it('show everything when the saved setting hides everything', () => {
    const hidden = defaultDeviceColumns().map((c) => ({ ...c, isVisible: false }));
    expect(resolveDeviceColumns(hidden).every((c) => c.isVisible)).toBe(true);
  });

  it('keep the last visible column and clamp widths to 60..2000', () => {
    let columns = defaultDeviceColumns();
    for (const c of columns.slice(1)) columns = setColumnVisible(columns, c.id, false);
    expect(setColumnVisible(columns, 'status', false).filter((c) => c.isVisible).map((c) => c.id)).toEqual(['status']);
    expect(setColumnWidth(columns, 'name', 12).find((c) => c.id === 'name')!.width).toBe(60);
    expect(setColumnWidth(columns, 'name', 9000).find((c) => c.id === 'name')!.width).toBe(2000);
  });

  it('fit a box narrower than their widths by shrinking the columns still at their default, none under 60', () => {
    const columns = defaultDeviceColumns();
    expect(fitDeviceColumns(columns, 1400)).toEqual(columns.map((c) => c.width));
    // 1440 px screen, 220 px sidebar, the page's padding and the table's border: 1170 px.
    const fitted = fitDeviceColumns(columns, 1170);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeLessThanOrEqual(1170);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeGreaterThan(1160);
    expect(fitted[0]).toBe(60);
    expect(Math.min(...fitted)).toBeGreaterThanOrEqual(60);
  });

  it('keep the name, Last Seen and SDK whole while the other columns can give way', () => {
    const columns = defaultDeviceColumns();
    const byId = (widths: number[]) => Object.fromEntries(columns.map((c, i) => [c.id, widths[i]]));
    // 1280 px without the right sidebar: 1010 px; the name, Last Seen and SDK keep their defaults.
    const wide = byId(fitDeviceColumns(columns, 1010));
    expect(wide).toMatchObject({ status: 60, name: 150, lastSeen: 150, sdkVersion: 100 });
    expect(wide.model! / wide.bundleId!).toBeCloseTo(200 / 250, 1);
    // With the right sidebar (320 px): 690 px. The others at 60; Last Seen gives way first, then the SDK, then the name.
    const fitted = fitDeviceColumns(columns, 690);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeLessThanOrEqual(690);
    expect(byId(fitted)).toMatchObject({ status: 60, model: 60, bundleId: 60, group: 60, systemVersion: 60, id: 60, lastSeen: 100, sdkVersion: 90 });
    expect(byId(fitted).name).toBe(140);
    // Beside a 15 px scroll bar the name gives some of its room last.
    const barred = byId(fitDeviceColumns(columns, 675));
    expect(barred).toMatchObject({ lastSeen: 100, sdkVersion: 90 });
    expect(barred.name).toBeGreaterThanOrEqual(120);
    // A phone: not even the floors fit, so nothing is squeezed and the table scrolls.
    expect(fitDeviceColumns(columns, 356)).toEqual(columns.map((c) => c.width));
  });

  it('keep the widths the user set and let only the default ones give way', () => {
    const columns = setColumnWidth(defaultDeviceColumns(), 'bundleId', 400);
    const fitted = fitDeviceColumns(columns, 1170);
    expect(fitted[3]).toBe(400);
    expect(fitted.reduce((sum, w) => sum + w, 0)).toBeLessThanOrEqual(1170);
    // Nothing left to give: the user's widths stand and the table scrolls.
    const wide = defaultDeviceColumns().map((c) => ({ ...c, width: c.width + 1 }));
    expect(fitDeviceColumns(wide, 900)).toEqual(wide.map((c) => c.width));
  });
});

describe('device sort and search', () => {
  const a = device('a', { name: 'Alpha', lastSeen: '2026-11-01T10:00:00.000Z', online: true, bundleId: 'com.acme.shop' });
  const b = device('b', { name: 'beta', lastSeen: '2026-11-03T10:00:00.000Z', platform: 'android', systemName: 'Android', systemVersion: '14 (API 34)' });
  const c = device('c', { name: 'Gamma 10', lastSeen: '2026-11-02T10:00:00.000Z', group: 'Fleet' });

  it('starts with lastSeen newest first, then sorts by a clicked column ascending and reverses on a second click', () => {
    expect(sortDevices([a, b, c], DEFAULT_DEVICE_SORT).map((d) => d.id)).toEqual(['b', 'c', 'a']);
    const byName = toggleDeviceSort(DEFAULT_DEVICE_SORT, 'name');
    expect(byName).toEqual({ column: 'name', direction: 'asc' });
    expect(sortDevices([c, b, a], byName).map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(sortDevices([c, b, a], toggleDeviceSort(byName, 'name')).map((d) => d.id)).toEqual(['c', 'b', 'a']);
    expect(sortDevices([b, a, c], { column: 'status', direction: 'desc' })[0]!.id).toBe('a');
  });

  it('finds devices by name, bundle id, group, OS and id, ignoring case', () => {
    const all = [a, b, c];
    const find = (q: string) => all.filter((d) => matchesDeviceSearch(d, q)).map((d) => d.id);
    expect(find('')).toEqual(['a', 'b', 'c']);
    expect(find('ALPHA')).toEqual(['a']);
    expect(find('acme')).toEqual(['a']);
    expect(find('fleet')).toEqual(['c']);
    expect(find('api 34')).toEqual(['b']);
    expect(find('nothing like it')).toEqual([]);
    expect(osLabel(b)).toBe('Android 14 (API 34)');
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  it('says just now, minutes, hours and days, then the date', () => {
    expect(relativeTime('2026-11-23T11:59:30.000Z', now)).toBe('just now');
    expect(relativeTime('2026-11-23T12:00:05.000Z', now)).toBe('just now');
    expect(relativeTime('2026-11-23T11:55:00.000Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-11-23T09:00:00.000Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-11-21T12:00:00.000Z', now)).toBe('2 d ago');
    expect(relativeTime('2026-10-01T12:00:00.000Z', now)).toMatch(/2026/);
    expect(relativeTime('not a date', now)).toBe('');
  });
});

describe('device cache from live messages', () => {
  const status = (patch: Partial<Extract<ViewerOutbound, { type: 'device_status' }>>): Extract<ViewerOutbound, { type: 'device_status' }> => ({
    type: 'device_status', deviceId: 'a', online: true, name: 'Renamed', sdkVersion: '1.4.600', lastSeen: '2026-11-05T00:00:00.000Z', group: 'G', ...patch,
  });

  it('updates online, name, sdkVersion, lastSeen and group of a known device', () => {
    const result = applyDeviceStatus([device('a', { model: 'iPhone16,1' }), device('b')], status({}));
    expect(result.added).toBeNull();
    expect(result.devices[0]).toMatchObject({ id: 'a', online: true, name: 'Renamed', sdkVersion: '1.4.600', lastSeen: '2026-11-05T00:00:00.000Z', group: 'G', model: 'iPhone16,1' });
    expect(result.devices[1]).toEqual(device('b'));
  });

  it('appends an unknown device it describes, and flags one it does not', () => {
    const added = applyDeviceStatus([device('b')], status({ device: device('a', { online: true }) }));
    expect(added.devices.map((d) => d.id)).toEqual(['b', 'a']);
    expect(added.added?.id).toBe('a');
    expect(applyDeviceStatus([device('b')], status({})).unknown).toBe(true);
  });

  it('replaces a device on update and removes a deleted one', () => {
    expect(replaceDevice([device('a'), device('b')], device('b', { name: 'New' }))[1]!.name).toBe('New');
    expect(removeDevice([device('a'), device('b')], 'a').map((d) => d.id)).toEqual(['b']);
  });
});

describe('device selection', () => {
  const ids = ['a', 'b', 'c'];
  it('moves with Up/Down from the anchor, starting at an end, and stops at the ends', () => {
    let s = moveSelection(EMPTY_SELECTION, ids, 1);
    expect([...s.selected]).toEqual(['a']);
    s = moveSelection(moveSelection(moveSelection(s, ids, 1), ids, 1), ids, 1);
    expect([...s.selected]).toEqual(['c']);
    expect([...moveSelection(EMPTY_SELECTION, ids, -1).selected]).toEqual(['c']);
  });

  it('selects all, toggles with Ctrl/Cmd+click, and forgets rows no longer shown', () => {
    let s = selectAll(EMPTY_SELECTION, ids);
    expect(s.selected.size).toBe(3);
    s = clickRow(s, 'b', true);
    expect([...s.selected]).toEqual(['a', 'c']);
    s = clickRow(s, 'b', false);
    expect([...s.selected]).toEqual(['b']);
    expect(keepShown(s, ['a', 'c'])).toEqual({ selected: new Set(), anchor: null });
  });
});
