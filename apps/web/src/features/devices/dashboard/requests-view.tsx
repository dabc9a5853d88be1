import type { Device } from '@spyglass/protocol';
import { liveConnection } from '../../../lib/live';
import { LoadingRequests } from '../../requests/inspector/inspector-states';
import { loadDeviceItem } from '../../requests/inspector/items-api';
import { RequestsScreen } from '../../requests/inspector/requests-screen';
import { useRequestList } from '../../requests/store/use-request-list';
import { SaveSessionButton } from '../../sessions/save-session-button';

/** The requests view of the dashboard: the device's live items in the request list screen. */
export function RequestsView({ device }: { device: Device }) {
  const list = useRequestList(device.id, liveConnection);
  if (!list) return <section className="inspector"><LoadingRequests /></section>;
  return (
    <RequestsScreen
      list={list}
      device={device}
      mode="device"
      loadItem={loadDeviceItem}
      toolbarExtra={<SaveSessionButton deviceId={device.id} store={list.store} />}
    />
  );
}
