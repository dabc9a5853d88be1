import {
  SCREEN_CAPTURE_TEXTS, type DeviceScreenCaptureFrame, type ViewerInbound, type ViewerOutbound, type ViewerScreenCaptureError,
} from '@spyglass/protocol';
import { topics, type LiveBus } from './bus';
import type { DeviceCommands } from './device-commands';

type ViewerSignal = Extract<ViewerInbound, { type: 'answer' | 'candidate' }>;
type DeviceErrorType = Exclude<DeviceScreenCaptureFrame['type'], 'offer' | 'candidate'>;

/** What the viewer is told when the device gave no reason of its own. */
const DEFAULT_REASONS: Record<DeviceErrorType, string> = {
  screen_capture_permission_denied: SCREEN_CAPTURE_TEXTS.permissionRequired,
  screen_capture_not_supported: SCREEN_CAPTURE_TEXTS.notSupported,
  screen_capture_failed: 'The device could not share its screen',
  screen_capture_ended: 'The screen capture ended',
};

export const DEVICE_GONE_REASON = 'The device disconnected';
export const DEVICE_UNREACHABLE_REASON = 'The device is offline';

/**
 * Relays screen capture signalling (docs/protocol.md "Screen capture") between a device and the
 * viewers of its account, on whichever nodes they are. Device → viewer goes to the viewer's own
 * topic, which is named by the device's account: a device can only reach viewers of its own
 * account. Viewer → device goes to the device topic of the viewer's account, with the viewer's
 * connection id set by the server: a viewer can neither reach another account's device nor speak
 * for another viewer.
 */
export class ScreenCaptureRelay {
  constructor(private readonly bus: LiveBus, private readonly commands: DeviceCommands) {}

  fromDevice(userId: string, deviceId: string, frame: DeviceScreenCaptureFrame): void {
    let message: ViewerOutbound;
    switch (frame.type) {
      case 'offer':
        message = { type: 'offer', deviceId, sdp: frame.sdp };
        break;
      case 'candidate':
        message = { type: 'candidate', deviceId, candidate: frame.candidate };
        break;
      default:
        message = { type: frame.type, deviceId, message: frame.message || DEFAULT_REASONS[frame.type] };
    }
    this.toViewer(userId, frame.viewerId, message);
  }

  /** Answers false when no connection of the device could be reached. */
  fromViewer(userId: string, viewerId: string, message: ViewerSignal): Promise<boolean> {
    const frame = message.type === 'answer'
      ? { type: 'answer' as const, viewerId, sdp: message.sdp }
      : { type: 'candidate' as const, viewerId, candidate: message.candidate };
    return this.commands.signal(userId, message.target, frame);
  }

  /** A viewer's connection closed: each device it watched ends that session (an offline one has nothing to end). */
  viewerLeft(userId: string, viewerId: string, deviceIds: string[]): void {
    for (const deviceId of deviceIds) this.commands.send(userId, deviceId, 'stop_screen_capture', { viewerId }).catch(() => {});
  }

  /** The broadcaster is gone: whoever watches the device stops waiting for its frames. */
  deviceGone(userId: string, deviceId: string): void {
    const topic = topics.deviceViewers(userId, deviceId);
    if (!this.bus.mayHaveSubscribers(topic)) return;
    const message: ViewerScreenCaptureError = { type: 'screen_capture_ended', deviceId, message: DEVICE_GONE_REASON };
    this.bus.publish(topic, JSON.stringify(message));
  }

  private toViewer(userId: string, viewerId: string, message: ViewerOutbound): void {
    const topic = topics.viewer(userId, viewerId);
    if (this.bus.mayHaveSubscribers(topic)) this.bus.publish(topic, JSON.stringify(message));
  }
}
