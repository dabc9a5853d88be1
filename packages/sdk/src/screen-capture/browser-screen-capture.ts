import type { DeviceScreenCaptureFrame } from '@spyglass/protocol';
import { ScreenBroadcaster, ScreenSourceUnavailable, type ScreenCaptureControl } from './broadcaster';
import type { MediaStreamLike, PeerConnectionConstructor } from './webrtc';

/**
 * Lets the dashboard watch this app's screen (Capture Screen, spec 001). Browsers only: the
 * device sends the screen over WebRTC, peer to peer or through the server's TURN relay.
 */
export interface ScreenCaptureOptions {
  /**
   * Let the dashboard ask for the page or the screen through `getDisplayMedia` (the browser asks
   * the user which one to share, and may refuse without a user gesture). `true` asks for video
   * only; an object is passed to `getDisplayMedia` as it is.
   */
  displayMedia?: boolean | Record<string, unknown>;
  /**
   * The app's own stream instead, e.g. `() => canvas.captureStream(30)` or an element's
   * `captureStream()`: called when the first viewer starts watching; its tracks are stopped when
   * the last one stops.
   */
  stream?: () => MediaStreamLike | Promise<MediaStreamLike>;
}

interface BrowserMedia {
  RTCPeerConnection?: PeerConnectionConstructor;
  navigator?: { mediaDevices?: { getDisplayMedia?: (constraints: Record<string, unknown>) => Promise<MediaStreamLike> } };
}

/** The broadcaster for this page, or undefined when the app did not allow it or the browser cannot. */
export function browserScreenCapture(
  options: ScreenCaptureOptions | undefined, send: (frame: DeviceScreenCaptureFrame) => void,
): ScreenCaptureControl | undefined {
  const media = globalThis as BrowserMedia;
  const RTCPeerConnection = media.RTCPeerConnection;
  if (!options || !RTCPeerConnection) return undefined;
  const { stream, displayMedia } = options;
  if (stream) return new ScreenBroadcaster(async () => stream(), RTCPeerConnection, send);
  if (!displayMedia) return undefined;
  const constraints = displayMedia === true ? { video: true, audio: false } : displayMedia;
  return new ScreenBroadcaster(async () => {
    const mediaDevices = media.navigator?.mediaDevices;
    if (!mediaDevices?.getDisplayMedia) throw new ScreenSourceUnavailable('getDisplayMedia is not available');
    return mediaDevices.getDisplayMedia(constraints);
  }, RTCPeerConnection, send);
}
