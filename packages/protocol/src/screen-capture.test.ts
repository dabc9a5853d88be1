import { describe, expect, it } from 'vitest';
import { DeviceFrame, ServerFrame } from './device-protocol';
import { ViewerInbound, ViewerOutbound } from './live';

const candidate = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54321 typ host', sdpMid: '0', sdpMLineIndex: 0 };

describe('screen capture signalling shapes', () => {
  it('accepts what each side sends', () => {
    expect(DeviceFrame.parse({ type: 'offer', viewerId: 'v1', sdp: 'v=0' })).toEqual({ type: 'offer', viewerId: 'v1', sdp: 'v=0' });
    expect(DeviceFrame.safeParse({ type: 'candidate', viewerId: 'v1', candidate }).success).toBe(true);
    for (const type of ['screen_capture_permission_denied', 'screen_capture_not_supported', 'screen_capture_failed', 'screen_capture_ended']) {
      expect(DeviceFrame.safeParse({ type, viewerId: 'v1' }).success, type).toBe(true);
    }
    expect(ServerFrame.safeParse({ type: 'answer', viewerId: 'v1', sdp: 'v=0' }).success).toBe(true);
    expect(ViewerInbound.safeParse({ type: 'candidate', target: 'device-1', candidate }).success).toBe(true);
    expect(ViewerOutbound.safeParse({ type: 'screen_capture_refused', deviceId: null, message: 'Invalid answer message' }).success).toBe(true);
  });

  it('refuses signalling without its addressee or with oversized parts', () => {
    expect(ViewerInbound.safeParse({ type: 'answer', sdp: 'v=0' }).success).toBe(false);
    expect(ViewerInbound.safeParse({ type: 'answer', target: 'd', sdp: 'x'.repeat(32_001) }).success).toBe(false);
    expect(DeviceFrame.safeParse({ type: 'offer', sdp: 'v=0' }).success).toBe(false);
    expect(DeviceFrame.safeParse({ type: 'candidate', viewerId: 'v1', candidate: { candidate: 'x'.repeat(1001) } }).success).toBe(false);
    expect(DeviceFrame.safeParse({ type: 'screen_capture_paused', viewerId: 'v1' }).success).toBe(false);
  });

  it('still takes the frames of a device that knows nothing of screen capture', () => {
    expect(DeviceFrame.safeParse({ type: 'ping', t: 1 }).success).toBe(true);
    expect(DeviceFrame.safeParse({ type: 'result', commandId: 'c', ok: true }).success).toBe(true);
  });
});
