import type { CapturedItem, Device } from '@spyglass/protocol';
import type { ReactNode } from 'react';
import type { RequestList } from '../store/request-list';
import type { InspectorMode } from './inspector-mode';
import type { ItemMocking } from './item-mocking';
import type { LoadItems } from '../export/stream-export';

/** Props of `RequestsScreen` (inspector/requests-screen.tsx), the request list screen (spec 001). */
export interface RequestsScreenProps {
  /** The items shown: a device's live list or a saved session's. */
  list: RequestList;
  /** The device the items belong to (platform of the sample snippet, delete/clear endpoints). */
  device?: Device;
  mode: InspectorMode;
  /** Extra toolbar controls (the sessions issue's Save Session button). */
  toolbarExtra?: ReactNode;
  /** The full item for details, export and cURL (device mode: GET /v1/requests/{id}). */
  loadItem: (id: string) => Promise<CapturedItem>;
  /** Full items a batch at a time, for export (device mode: POST /v1/requests/lookup); `loadItem` a few at a time without it. */
  loadItems?: LoadItems;
  /** The mock controls (device mode only: spec 001 §6, session views hide them). */
  mocking?: ItemMocking;
}
