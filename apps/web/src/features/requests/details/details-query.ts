import type { InspectorMode } from '../inspector/inspector-mode';

/**
 * The TanStack Query key of a full item in the details panel. Exported so that whoever changes
 * an item (the mock editor) can refresh it. Mode and device are part of it: a session's copy of
 * an item is not the live device's.
 */
export const detailsItemKey = (mode: InspectorMode, deviceId: string, itemId: string) => ['request-item', mode, deviceId, itemId] as const;
