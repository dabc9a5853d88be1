import { NEW_DEVICE_ANIMATION_MS } from '@spyglass/protocol';
import { ArrowRight, Check } from 'lucide-react';
import { useEffect, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import type { ConnectedDevice } from './use-new-device';

/** Spec 001 §9: the waiting timer refreshes every 100 ms and appears only after 50 ms. */
const TIMER_REFRESH_MS = 100;
const TIMER_DELAY_MS = 50;

function useElapsed(running: boolean): number | null {
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), TIMER_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [running]);
  const elapsed = now - startedAt;
  return elapsed < TIMER_DELAY_MS ? null : elapsed;
}

function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** 'Waiting for devices to connect...' until a device connects live, then 'New device connected!'. */
export function ConnectionStatus({ device }: { device: ConnectedDevice | null }) {
  const elapsed = useElapsed(device === null);
  if (device === null) {
    return (
      <div className="connect-status" role="status">
        <span className="connect-radar" aria-hidden="true"><span /><span /></span>
        <div className="connect-status-text">
          <strong>Waiting for devices to connect...</strong>
          <span>Start your app with the SDK set up as below; it shows up here the moment it connects.</span>
        </div>
        {elapsed !== null && <span className="connect-elapsed" aria-hidden="true">{formatElapsed(elapsed)}</span>}
      </div>
    );
  }
  return (
    <div className="connect-status is-connected" role="status" style={{ '--new-device-ms': `${NEW_DEVICE_ANIMATION_MS}ms` } as CSSProperties}>
      <span className="connect-success" aria-hidden="true"><Check size={18} strokeWidth={3} /></span>
      <div className="connect-status-text">
        <strong>New device connected!</strong>
        <span>{device.name} is sending its traffic to Spyglass.</span>
      </div>
      <div className="connect-status-actions">
        <Link className="btn btn-secondary" to="/devices">All devices</Link>
        <Link className="btn btn-primary" to={`/devices/${encodeURIComponent(device.id)}`}>Open device<ArrowRight size={14} aria-hidden="true" /></Link>
      </div>
    </div>
  );
}
