import { Smartphone, SmartphoneNfc } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { SAMPLE_DEVICE_ID, type Device } from '@spyglass/protocol';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/document-title';
import { useLiveMessage } from '../../../lib/live';
import { Banner } from '../../../ui/banner';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { LoadingScreen } from '../../../ui/spinner';
import { NotFoundPage } from '../../not-found/not-found-page';
import { useDevice } from './device-dashboard.api';
import { platformName } from '../device-list';
import { DEVICE_VIEWS, deviceViewPath, isViewOnPlatform, resolveDeviceView, viewPlatforms, type DeviceViewId } from './device-views';
import { RequestsView } from './requests-view';
import { SampleDeviceBanner } from './sample-device-banner';
import './device-dashboard.css';

// Its own chunk: the requests view, the one most opened, does not load the route editor.
const MockRoutesView = lazy(() => import('../../mocks/routes/mock-routes-view').then((m) => ({ default: m.MockRoutesView })));
const UserDefaultsView = lazy(() => import('../../user-defaults/user-defaults-view').then((m) => ({ default: m.UserDefaultsView })));

/**
 * /devices/{deviceId} and /devices/{deviceId}/{view} (spec 001 §2): the device's views, under
 * the live offline banner. The device's sidebar part (header, views, actions) is
 * `DeviceSidebarSection`.
 */
export function DeviceDashboard() {
  const { deviceId = '', view } = useParams();
  const navigate = useNavigate();
  const device = useDevice(deviceId);
  const viewId = resolveDeviceView(view);
  useDocumentTitle(device.data?.name ?? 'Device');

  // Deleted elsewhere (another tab, another user of the account): nothing is left to show.
  useLiveMessage('device_deleted', (message) => {
    if (message.deviceId === deviceId) void navigate('/devices', { replace: true });
  });

  if (viewId === null) return <NotFoundPage />;
  const notFound = device.error instanceof ApiError && device.error.status === 404;
  if (notFound || (device.isError && !device.data)) {
    return (
      <div className="page">
        <EmptyState
          icon={<SmartphoneNfc size={22} />}
          title={notFound ? 'Device not found' : 'Failed to load device'}
          description={notFound ? 'It may have been deleted.' : device.error?.message}
          actions={(
            <>
              {!notFound && <Button onClick={() => void device.refetch()}>Try again</Button>}
              <Link className="btn btn-primary" to="/devices">Go to devices</Link>
            </>
          )}
        />
      </div>
    );
  }
  if (!device.data) return <LoadingScreen label="Loading device" />;

  return (
    <div className="device-dashboard">
      {device.data.id === SAMPLE_DEVICE_ID
        ? <SampleDeviceBanner deviceId={device.data.id} />
        : !device.data.online && <Banner tone="offline">Device is offline - Some features may not work.</Banner>}
      {!isViewOnPlatform(viewId, device.data.platform) && <ViewNotOnPlatform device={device.data} viewId={viewId} />}
      {viewId === 'requests' && <RequestsView device={device.data} />}
      {viewId === 'mock-apis' && (
        <Suspense fallback={<LoadingScreen label="Loading mocked routes" />}>
          <MockRoutesView device={device.data} />
        </Suspense>
      )}
      {viewId === 'user-defaults' && isViewOnPlatform(viewId, device.data.platform) && (
        <Suspense fallback={<LoadingScreen label="Loading user defaults" />}>
          <UserDefaultsView device={device.data} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * A view typed into the address for a device it does not work on (spec 002 §2: User Defaults needs
 * an iOS device): said plainly, with the way to the device's requests, instead of an editor that
 * would only fail against the device.
 */
function ViewNotOnPlatform({ device, viewId }: { device: Device; viewId: DeviceViewId }) {
  const label = DEVICE_VIEWS.find((view) => view.id === viewId)!.label;
  const needs = (viewPlatforms(viewId) ?? []).map((platform) => platformName({ platform })).join(' or ');
  return (
    <div className="page-body page-body-center">
      <EmptyState
        icon={<Smartphone size={22} />}
        title={`${label} is not available for this device`}
        description={`${label} works on ${needs} devices only; ${device.name} runs ${platformName(device)}.`}
        actions={<Link className="btn btn-primary" to={deviceViewPath(device.id, 'requests')}>Go to requests</Link>}
      />
    </div>
  );
}
