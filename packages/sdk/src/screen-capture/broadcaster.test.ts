import { describe, expect, it } from 'vitest';
import type { DeviceScreenCaptureFrame } from '@spyglass/protocol';
import { ScreenBroadcaster, ScreenSourceUnavailable } from './broadcaster';
import type { MediaStreamLike, MediaTrackLike, PeerConnectionLike } from './webrtc';

class FakeTrack implements MediaTrackLike {
  readonly kind = 'video';
  stopped = false;
  private ended: (() => void)[] = [];
  stop() { this.stopped = true; }
  addEventListener(_type: 'ended', listener: () => void) { this.ended.push(listener); }
  end() { for (const listener of this.ended) listener(); }
}

const peers: FakePeer[] = [];
class FakePeer implements PeerConnectionLike {
  connectionState = 'new';
  localDescription: { sdp: string } | null = null;
  onicecandidate: PeerConnectionLike['onicecandidate'] = null;
  onconnectionstatechange: (() => void) | null = null;
  tracks: MediaTrackLike[] = [];
  remote: string | null = null;
  candidates: string[] = [];
  closed = false;
  constructor(readonly configuration: unknown) { peers.push(this); }
  addTrack(track: MediaTrackLike) { this.tracks.push(track); }
  async createOffer() { return { type: 'offer', sdp: `offer-${peers.length}` }; }
  async setLocalDescription(description: { sdp?: string }) {
    this.localDescription = { sdp: description.sdp ?? '' };
    this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 }) } });
  }
  async setRemoteDescription(description: { sdp: string }) {
    if (description.sdp === 'bad') throw new Error('Invalid SDP');
    this.remote = description.sdp;
  }
  async addIceCandidate(candidate: { candidate: string }) { this.candidates.push(candidate.candidate); }
  close() { this.closed = true; }
}

function setup(source: () => Promise<MediaStreamLike>) {
  const sent: DeviceScreenCaptureFrame[] = [];
  const broadcaster = new ScreenBroadcaster(source, FakePeer, (frame) => sent.push(frame));
  const next = async (type: DeviceScreenCaptureFrame['type'], viewerId: string) => {
    await expect.poll(() => sent.some((f) => f.type === type && f.viewerId === viewerId)).toBe(true);
    return sent.find((f) => f.type === type && f.viewerId === viewerId)!;
  };
  return { sent, broadcaster, next };
}

const streamOf = (track: FakeTrack): MediaStreamLike => ({ getVideoTracks: () => [track], getTracks: () => [track] });

describe('ScreenBroadcaster', () => {
  it('offers one capture to each viewer, applies answers and candidates, and stops the capture after the last viewer', async () => {
    const track = new FakeTrack();
    let captures = 0;
    const { sent, broadcaster, next } = setup(async () => {
      captures++;
      return streamOf(track);
    });
    const iceServers = [{ urls: ['turn:127.0.0.1:3478'], username: 'u', credential: 'c' }];
    broadcaster.start({ viewerId: 'a', iceServers });
    broadcaster.start({ viewerId: 'b', iceServers: [] });
    expect(await next('offer', 'a')).toMatchObject({ sdp: expect.stringMatching(/^offer-/) });
    await next('offer', 'b');
    expect(await next('candidate', 'a')).toMatchObject({ candidate: { candidate: expect.stringContaining('typ host'), sdpMid: '0' } });
    expect(captures).toBe(1);
    const [peerA, peerB] = peers.slice(-2);
    expect(peerA!.configuration).toEqual({ iceServers });
    expect(peerA!.tracks).toEqual([track]);

    broadcaster.receive({ type: 'answer', viewerId: 'a', sdp: 'answer-a' });
    broadcaster.receive({ type: 'candidate', viewerId: 'a', candidate: { candidate: 'candidate:2' } });
    broadcaster.receive({ type: 'answer', viewerId: 'nobody', sdp: 'x' });
    await expect.poll(() => peerA!.remote).toBe('answer-a');
    await expect.poll(() => peerA!.candidates).toEqual(['candidate:2']);

    broadcaster.stop('a');
    expect(peerA!.closed).toBe(true);
    expect(track.stopped).toBe(false);
    expect(sent.at(-1)).toEqual({ type: 'screen_capture_ended', viewerId: 'a', message: 'The screen capture was stopped' });
    broadcaster.stop('b');
    expect(peerB!.closed).toBe(true);
    await expect.poll(() => track.stopped).toBe(true);
    expect(broadcaster.viewers).toBe(0);
  });

  it('tells the viewer why there is no offer: permission, support, failure', async () => {
    const denied = setup(async () => { throw Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }); });
    denied.broadcaster.start({ viewerId: 'v', iceServers: [] });
    expect(await denied.next('screen_capture_permission_denied', 'v')).toMatchObject({ message: 'Screen Recording Permission Required' });

    const unsupported = setup(async () => { throw new ScreenSourceUnavailable('no getDisplayMedia'); });
    unsupported.broadcaster.start({ viewerId: 'v', iceServers: [] });
    expect(await unsupported.next('screen_capture_not_supported', 'v')).toMatchObject({ message: 'Screen Recording not supported!' });

    const track = new FakeTrack();
    const refused = setup(async () => streamOf(track));
    refused.broadcaster.start({ viewerId: 'v', iceServers: [] });
    await refused.next('offer', 'v');
    refused.broadcaster.receive({ type: 'answer', viewerId: 'v', sdp: 'bad' });
    expect(await refused.next('screen_capture_failed', 'v')).toMatchObject({ message: expect.stringContaining('Invalid SDP') });
    await expect.poll(() => track.stopped).toBe(true);
  });

  it('ends every session when the user stops sharing from the browser', async () => {
    const track = new FakeTrack();
    const { broadcaster, next } = setup(async () => streamOf(track));
    broadcaster.start({ viewerId: 'a', iceServers: [] });
    broadcaster.start({ viewerId: 'b', iceServers: [] });
    await next('offer', 'a');
    await next('offer', 'b');
    track.end();
    expect(await next('screen_capture_ended', 'a')).toMatchObject({ message: 'The device stopped sharing its screen' });
    await next('screen_capture_ended', 'b');
    expect(broadcaster.viewers).toBe(0);
  });
});
