import { interceptedFlashes } from '../../mocks/intercepted-flash';
import { ItemMockSection } from '../../mocks/item-mock/item-mock-section';
import { saveItemAsMockRoute } from '../../mocks/save-as-mock-route';
import type { ItemMocking } from '../../requests/inspector/item-mocking';

/**
 * The mocks feature's controls in a device's request list: the dashboard composes the two
 * features, so that neither imports the other.
 */
export function deviceItemMocking(deviceId: string): ItemMocking {
  return {
    section: (item, onMockChanged) => <ItemMockSection item={item} deviceId={deviceId} onMockChanged={onMockChanged} />,
    saveAsMockRoute: (item) => saveItemAsMockRoute(deviceId, item),
    flashes: interceptedFlashes,
  };
}
