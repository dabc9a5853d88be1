import { useEffect, useSyncExternalStore } from 'react';
import { liveConnection } from '../../lib/live';
import { fetchIceServers, startCapture, stopCapture } from './screen-capture.api';
import { ScreenCaptureSession, type CaptureDeps } from './screen-capture-session';

const browserDeps: CaptureDeps = {
  live: liveConnection,
  fetchIceServers,
  start: startCapture,
  stop: stopCapture,
  createPeer: (configuration) => new RTCPeerConnection(configuration),
};

/** One session per device for the tab: the sidebar's Capture Screen and the right sidebar share it. */
const sessions = new Map<string, ScreenCaptureSession>();
const pendingStops = new Map<string, ReturnType<typeof setTimeout>>();

export function screenCaptureOf(deviceId: string): ScreenCaptureSession {
  let session = sessions.get(deviceId);
  if (!session) {
    session = new ScreenCaptureSession(deviceId, browserDeps);
    sessions.set(deviceId, session);
  }
  return session;
}

/**
 * The device's session and its state while the viewer is shown. When the viewer goes (the right
 * sidebar closed, another device opened), the capture stops, so that no device keeps sending a
 * screen nobody sees; a viewer shown again at once (React's remount) keeps it.
 */
export function useScreenCapture(deviceId: string) {
  const session = screenCaptureOf(deviceId);
  const state = useSyncExternalStore(session.onChange, session.getState);
  useEffect(() => {
    clearTimeout(pendingStops.get(deviceId));
    pendingStops.delete(deviceId);
    return () => {
      pendingStops.set(deviceId, setTimeout(() => {
        pendingStops.delete(deviceId);
        session.stop();
      }, 0));
    };
  }, [deviceId, session]);
  return { session, state };
}
