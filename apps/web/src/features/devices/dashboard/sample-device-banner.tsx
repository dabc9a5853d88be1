import { Link, useNavigate } from 'react-router';
import { Button } from '../../../ui/button';
import { Banner } from '../../../ui/banner';
import { useDeleteDevice } from './device-dashboard.api';

/**
 * On the sample device 1-demo (spec 002 'Sample data'): says the items are a sample, that it
 * goes once a real device connects, and removes it on request.
 */
export function SampleDeviceBanner({ deviceId }: { deviceId: string }) {
  const remove = useDeleteDevice(deviceId);
  const navigate = useNavigate();
  return (
    <Banner
      tone="info"
      action={(
        <span className="sample-banner-actions">
          <Link className="btn btn-primary btn-sm" to="/devices/new">Add new device</Link>
          <Button
            size="sm"
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: () => void navigate('/devices', { replace: true }) })}
          >
            Remove sample
          </Button>
        </span>
      )}
    >
      Sample data: 32 example requests, logs and events to try the inspector on. It goes away when your first device connects.
    </Banner>
  );
}
