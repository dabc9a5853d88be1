import { SCREEN_CAPTURE_TEXTS, type ViewerOutbound } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { CONNECTION_LOST, ENDED_BY_VIEWER, ScreenCaptureSession, type CaptureDeps } from './screen-capture-session';

class FakePeer {
  connectionState = 'new';
  remoteDescription: unknown = null;
  localDescription: { sdp: string } | null = null;
  ontrack: ((event: unknown) => void) | null = null;
  onicecandidate: ((event: unknown) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  added: unknown[] = [];
  closed = false;
  constructor(readonly configuration: RTCConfiguration) {}
  async setRemoteDescription(description: unknown) { this.remoteDescription = description; }
  async addIceCandidate(candidate: unknown) { this.added.push(candidate); }
  async createAnswer() { return { type: 'answer', sdp: 'answer-sdp' }; }
  async setLocalDescription(description: { sdp: string }) { this.localDescription = description; }
  close() { this.closed = true; }
  become(state: string) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

function setup(options: { start?: () => Promise<unknown> } = {}) {
  const listeners = new Set<(message: ViewerOutbound) => void>();
  const signals: unknown[] = [];
  const calls: string[] = [];
  const peers: FakePeer[] = [];
  const deps: CaptureDeps = {
    live: { connectionId: 'conn-1', signal: (m) => signals.push(m) > 0, subscribe: (l) => { listeners.add(l); return () => listeners.delete(l); } },
    fetchIceServers: async () => [{ urls: ['turn:127.0.0.1'], username: 'u', credential: 'c' }],
    start: async (deviceId, viewerId) => { calls.push(`start ${deviceId} ${viewerId}`); return options.start?.(); },
    stop: async (deviceId, viewerId) => { calls.push(`stop ${deviceId} ${viewerId}`); },
    createPeer: (configuration) => {
      const peer = new FakePeer(configuration);
      peers.push(peer);
      return peer as unknown as RTCPeerConnection;
    },
  };
  const session = new ScreenCaptureSession('dev-1', deps);
  const tell = (message: ViewerOutbound) => { for (const l of listeners) l(message); };
  return { session, signals, calls, peers, tell };
}

const stream = {} as MediaStream;

describe('ScreenCaptureSession', () => {
  it('asks the device, answers its offer, trades candidates and goes live; Stop ends it for both', async () => {
    const { session, signals, calls, peers, tell } = setup();
    session.start();
    expect(session.getState()).toEqual({ status: 'connecting' });
    await expect.poll(() => calls).toEqual(['start dev-1 conn-1']);
    const peer = peers[0]!;
    expect(peer.configuration.iceServers).toEqual([{ urls: ['turn:127.0.0.1'], username: 'u', credential: 'c' }]);

    tell({ type: 'candidate', deviceId: 'dev-1', candidate: { candidate: 'early' } });
    tell({ type: 'offer', deviceId: 'other-device', sdp: 'not ours' });
    tell({ type: 'offer', deviceId: 'dev-1', sdp: 'offer-sdp' });
    await expect.poll(() => signals).toEqual([{ type: 'answer', target: 'dev-1', sdp: 'answer-sdp' }]);
    expect(peer.remoteDescription).toEqual({ type: 'offer', sdp: 'offer-sdp' });
    expect(peer.added).toEqual([{ candidate: 'early' }]);
    peer.onicecandidate?.({ candidate: { toJSON: () => ({ candidate: 'mine', sdpMid: '0', sdpMLineIndex: 0 }) } });
    expect(signals.at(-1)).toEqual({ type: 'candidate', target: 'dev-1', candidate: { candidate: 'mine', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: undefined } });

    peer.ontrack?.({ streams: [stream], track: {} });
    peer.become('connected');
    expect(session.getState()).toEqual({ status: 'live', stream });

    session.stop();
    expect(session.getState()).toEqual({ status: 'ended', message: ENDED_BY_VIEWER });
    expect(peer.closed).toBe(true);
    await expect.poll(() => calls.at(-1)).toBe('stop dev-1 conn-1');
  });

  it('shows the permission and support texts\' states, and the device\'s other reasons', async () => {
    const denied = setup();
    denied.session.start();
    await expect.poll(() => denied.calls.length).toBe(1);
    denied.tell({ type: 'screen_capture_permission_denied', deviceId: 'dev-1', message: SCREEN_CAPTURE_TEXTS.permissionRequired });
    expect(denied.session.getState()).toEqual({ status: 'denied' });

    const refused = setup({ start: async () => { throw new ApiError(SCREEN_CAPTURE_TEXTS.notSupported, 409); } });
    refused.session.start();
    await expect.poll(() => refused.session.getState()).toEqual({ status: 'not_supported' });
    // A device that says it cannot is not even asked.
    const ios = setup();
    ios.session.start(false);
    expect(ios.session.getState()).toEqual({ status: 'not_supported' });
    expect(ios.calls).toEqual([]);

    const gone = setup();
    gone.session.start();
    await expect.poll(() => gone.calls.length).toBe(1);
    gone.tell({ type: 'screen_capture_ended', deviceId: 'dev-1', message: 'The device disconnected' });
    expect(gone.session.getState()).toEqual({ status: 'ended', message: 'The device disconnected' });
  });

  it('rebuilds the peer connection after a network change, and gives up after three failures in a row', async () => {
    const { session, calls, peers } = setup();
    session.start();
    await expect.poll(() => calls.length).toBe(1);
    for (let failure = 1; failure <= 3; failure++) {
      peers.at(-1)!.become('failed');
      await expect.poll(() => calls.length).toBe(1 + failure);
      expect(session.getState()).toEqual({ status: 'connecting' });
    }
    peers.at(-1)!.become('failed');
    expect(session.getState()).toEqual({ status: 'failed', message: CONNECTION_LOST });
    expect(peers.every((peer) => peer.closed)).toBe(true);
  });
});
