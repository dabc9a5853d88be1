/**
 * Where the request inspector is shown, which decides what it may change:
 * - 'device': a live device of the signed-in user — everything (delete, clear, mocks, settings saved);
 * - 'session': a saved session — read-mostly: no row delete, no clear, no mock toggle;
 * - 'public': a publicly shared session — nothing that writes, not even the user's settings.
 */
export type InspectorMode = 'device' | 'session' | 'public';

/** Row delete and clear-all are offered only for a live device. */
export function canDeleteItems(mode: InspectorMode): boolean {
  return mode === 'device';
}

/** Column layout, view mode and active filter are remembered except in the public (signed-out) view. */
export function savesSettings(mode: InspectorMode): boolean {
  return mode !== 'public';
}
