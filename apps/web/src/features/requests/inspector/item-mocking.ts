import type { CapturedItem, NetworkItem } from '@spyglass/protocol';
import type { ReactNode } from 'react';
import type { ItemFlashes } from '../table/item-flashes';

/** The mock state of an item as the server last answered it. */
export type ItemMockState = Pick<CapturedItem, 'isMocked' | 'mock' | 'mockData'>;

/**
 * The mock controls of a device's request list, handed in by the screen that composes the
 * request list with the mocks feature (the device dashboard). The request list knows where they
 * go, not what they are: `features/requests` does not import `features/mocks` (eslint.config.js).
 */
export interface ItemMocking {
  /**
   * The 'Enable Mock ⚡' editor of a network item in the details panel. `onMockChanged` gives the
   * panel the mock as the server answered it, so that the item reopened shows it.
   */
  section: (item: NetworkItem, onMockChanged: (state: ItemMockState) => void) => ReactNode;
  /** Save as Mock Route from the row menu, given the full item (its response body). */
  saveAsMockRoute: (item: CapturedItem) => Promise<unknown>;
  /** The flashes of the table's mocked icons when a request was answered by a mock (spec 001 §4). */
  flashes: ItemFlashes;
}
