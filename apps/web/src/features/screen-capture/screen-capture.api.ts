import { ScreenCaptureCredentials, SuccessBody, type IceServer } from '@spyglass/protocol';
import { api } from '../../lib/api';

const devicePath = (deviceId: string, call: string) => `/devices/${encodeURIComponent(deviceId)}/${call}`;

/** Relay credentials for this viewer's peer connection (short-lived: fetched for each session). */
export const fetchIceServers = async (): Promise<IceServer[]> =>
  (await api.get('/screen-capture/turn', ScreenCaptureCredentials, { errorMessage: 'Failed to get relay credentials' })).iceServers;

/** Asks the device to offer its screen to this live connection (spec 001 §7). */
export const startCapture = (deviceId: string, viewerId: string) =>
  api.get(devicePath(deviceId, 'start-capture-screen'), SuccessBody, { query: { viewerId }, errorMessage: 'Failed to start the screen capture' });

export const stopCapture = (deviceId: string, viewerId: string) =>
  api.get(devicePath(deviceId, 'stop-capture-screen'), SuccessBody, { query: { viewerId }, errorMessage: 'Failed to stop the screen capture' });
