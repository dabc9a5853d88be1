import type { Device } from '@spyglass/protocol';
import { useMemo } from 'react';
import { liveConnection } from '../../../lib/live';
import { LoadingRequests } from '../../requests/inspector/inspector-states';
import { deviceItemsLoader, loadDeviceItem } from '../../requests/requests.api';
import { RequestsScreen } from '../../requests/inspector/requests-screen';
import { useRequestList } from '../../requests/store/use-request-list';
import { SaveSessionButton } from '../../sessions/save-session-button';
import { deviceItemMocking } from './item-mocking';

/** The requests view of the dashboard: the device's live items in the request list screen, with the mock controls. */
export function RequestsView({ device }: { device: Device }) {
  const list = useRequestList(device.id, liveConnection);
  const mocking = useMemo(() => deviceItemMocking(device.id), [device.id]);
  const loadItems = useMemo(() => deviceItemsLoader(device.id), [device.id]);
  if (!list) return <section className="inspector"><LoadingRequests /></section>;
  return (
    <RequestsScreen
      list={list}
      device={device}
      mode="device"
      loadItem={loadDeviceItem}
      loadItems={loadItems}
      mocking={mocking}
      toolbarExtra={<SaveSessionButton deviceId={device.id} list={list} />}
    />
  );
}
