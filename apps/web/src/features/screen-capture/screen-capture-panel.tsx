import { SCREEN_CAPTURE_TEXTS, type Device } from '@spyglass/protocol';
import { MonitorSmartphone, MonitorX, Play, ShieldAlert, Square, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { ApiError } from '../../lib/api';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { useDevice } from '../devices/dashboard/device-dashboard.api';
import type { CaptureState } from './screen-capture-session';
import { useScreenCapture } from './screen-captures';
import './screen-capture.css';

const STATUS_LABELS: Record<CaptureState['status'], string> = {
  idle: 'Idle',
  connecting: 'Connecting',
  live: 'Live',
  ended: 'Ended',
  denied: 'Denied',
  not_supported: 'Not supported',
  failed: 'Failed',
};

/**
 * The right sidebar's remote screen capture of one device (spec 000 §2.2, spec 001 §4): start and
 * stop, the device's screen while live, and why it is not shown otherwise (spec 000 §8 texts).
 */
export function ScreenCapturePanel({ deviceId }: { deviceId: string }) {
  const query = useDevice(deviceId);
  const { session, state } = useScreenCapture(deviceId);
  const device = query.data;
  if (!device && query.isError) return <DeviceUnavailable error={query.error} onRetry={() => void query.refetch()} />;
  if (!device) return <div className="panel-empty"><Spinner size={18} label="Loading device" /></div>;

  const stop = () => session.stop();
  const offline = !device.online;
  // A device that says it cannot share its screen is not offered a start it would refuse.
  const canCapture = device.isScreenShareEnabled !== false;
  const startLabel = state.status === 'idle' ? 'Start Capture' : 'Start Again';
  const startButton = (
    <Button variant="primary" icon={<Play size={14} aria-hidden="true" />} onClick={() => session.start()} disabled={offline}>
      {startLabel}
    </Button>
  );
  const stopButton = (
    <Button icon={<Square size={13} aria-hidden="true" />} onClick={stop}>
      Stop Capture
    </Button>
  );

  return (
    <section className="capture" data-state={state.status} aria-label={`Screen of ${device.name}`}>
      <div className="capture-device">
        <span className="capture-device-name" title={device.name}>{device.name}</span>
        <span className={`capture-status is-${state.status}`} role="status">{STATUS_LABELS[state.status]}</span>
      </div>
      <div className="capture-stage">
        {state.status === 'live' ? <LiveVideo stream={state.stream} deviceName={device.name} /> : <StageMessage state={state} device={device} />}
      </div>
      <div className="capture-actions">
        {state.status === 'connecting' || state.status === 'live' ? stopButton : canCapture && startButton}
        {offline && !session.active && <p className="capture-hint">Device is offline</p>}
      </div>
    </section>
  );
}

/** Spec 001 §8: Device not found (404) or Failed to load device; either way nothing to capture. */
function DeviceUnavailable({ error, onRetry }: { error: Error; onRetry(): void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <div className="panel-empty" role="alert">
      <Message icon={<MonitorX size={24} aria-hidden="true" />} title={notFound ? 'Device not found' : 'Failed to load device'} tone={notFound ? undefined : 'danger'}>
        {notFound ? 'It may have been deleted. Open a device to watch its screen here.' : error.message}
      </Message>
      {!notFound && <Button size="sm" onClick={onRetry}>Try again</Button>}
    </div>
  );
}

function LiveVideo({ stream, deviceName }: { stream: MediaStream; deviceName: string }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);
  return <video ref={video} className="capture-video" autoPlay muted playsInline aria-label={`Live screen of ${deviceName}`} />;
}

function StageMessage({ state, device }: { state: CaptureState; device: Device }) {
  switch (state.status) {
    case 'idle':
      return <Message icon={<MonitorSmartphone size={24} aria-hidden="true" />} title="Watch the screen live">See what is on {device.name}&apos;s screen, next to its traffic.</Message>;
    case 'connecting':
      return <Message icon={<Spinner size={22} />} title="Connecting…">Waiting for {device.name} to share its screen.</Message>;
    case 'ended':
      return <Message icon={<MonitorX size={24} aria-hidden="true" />} title="Screen capture ended">{state.message}</Message>;
    case 'denied':
      return <Message icon={<ShieldAlert size={24} aria-hidden="true" />} title={SCREEN_CAPTURE_TEXTS.permissionRequired} tone="warning">Allow screen recording on the device, then start again.</Message>;
    case 'not_supported':
      return (
        <Message icon={<MonitorX size={24} aria-hidden="true" />} title={SCREEN_CAPTURE_TEXTS.notSupported} tone="warning">
          {device.platform === 'ios' ? 'On iOS, screen capture needs the screen-share variant of the SDK.' : 'This device’s SDK cannot share its screen.'}
        </Message>
      );
    case 'failed':
      return <Message icon={<TriangleAlert size={24} aria-hidden="true" />} title="Screen capture failed" tone="danger">{state.message}</Message>;
    case 'live':
      return null;
  }
}

function Message({ icon, title, tone, children }: { icon: ReactNode; title: string; tone?: 'warning' | 'danger'; children: ReactNode }) {
  return (
    <div className={`capture-message${tone ? ` is-${tone}` : ''}`}>
      <span className="capture-message-icon">{icon}</span>
      <p className="capture-message-title">{title}</p>
      <p className="capture-message-text">{children}</p>
    </div>
  );
}
