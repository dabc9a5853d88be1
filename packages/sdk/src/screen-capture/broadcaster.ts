import { SCREEN_CAPTURE_TEXTS } from '@spyglass/protocol/device';
import type { DeviceScreenCaptureFrame, ServerScreenCaptureFrame, StartScreenCaptureArgs } from '@spyglass/protocol';
import type { MediaStreamLike, PeerConnectionConstructor, PeerConnectionLike } from './webrtc';

/** Where the screen comes from: the browser's picker, or the app's own stream. */
export type ScreenSource = () => Promise<MediaStreamLike>;

/** Thrown by a source that cannot capture at all (as opposed to a user who said no). */
export class ScreenSourceUnavailable extends Error {}

/** What the client drives: commands and signalling frames in, device frames out through `send`. */
export interface ScreenCaptureControl {
  start(args: StartScreenCaptureArgs): void;
  stop(viewerId: string): void;
  receive(frame: ServerScreenCaptureFrame): void;
  /** The client stops: every session ends. */
  stopAll(): void;
  /** Number of viewers being sent the screen (for tests and the app's own indicator). */
  readonly viewers: number;
}

/**
 * The device side of remote screen capture (docs/protocol.md "Screen capture"): one
 * RTCPeerConnection per viewer connection, all fed from one capture of the screen, which starts
 * with the first viewer and stops with the last. The device makes the offer; the viewers answer.
 * What goes wrong is told to the viewer concerned as a `screen_capture_*` frame, never thrown.
 */
export class ScreenBroadcaster implements ScreenCaptureControl {
  private readonly peers = new Map<string, PeerConnectionLike>();
  private stream: Promise<MediaStreamLike> | null = null;

  constructor(
    private readonly source: ScreenSource,
    private readonly RTCPeerConnection: PeerConnectionConstructor,
    private readonly send: (frame: DeviceScreenCaptureFrame) => void,
    private readonly onChange: (viewers: number) => void = () => {},
  ) {}

  get viewers(): number {
    return this.peers.size;
  }

  start({ viewerId, iceServers }: StartScreenCaptureArgs): void {
    // A viewer that starts again (it reconnected) gets a fresh session.
    this.closePeer(viewerId);
    void this.offer(viewerId, iceServers);
  }

  stop(viewerId: string): void {
    if (!this.peers.has(viewerId)) return;
    this.closePeer(viewerId);
    this.send({ type: 'screen_capture_ended', viewerId, message: 'The screen capture was stopped' });
    this.releaseIfIdle();
  }

  receive(frame: ServerScreenCaptureFrame): void {
    const peer = this.peers.get(frame.viewerId);
    if (!peer) return;
    const applied = frame.type === 'answer'
      ? peer.setRemoteDescription({ type: 'answer', sdp: frame.sdp })
      : peer.addIceCandidate(frame.candidate);
    applied.catch((error: unknown) => this.fail(frame.viewerId, `The viewer's ${frame.type} was refused: ${describe(error)}`));
  }

  stopAll(reason = 'The screen capture was stopped'): void {
    for (const viewerId of [...this.peers.keys()]) {
      this.closePeer(viewerId);
      this.send({ type: 'screen_capture_ended', viewerId, message: reason });
    }
    this.releaseIfIdle();
  }

  private async offer(viewerId: string, iceServers: StartScreenCaptureArgs['iceServers']): Promise<void> {
    let stream: MediaStreamLike;
    try {
      stream = await this.capture();
    } catch (error) {
      this.refuse(viewerId, error);
      return;
    }
    const peer = new this.RTCPeerConnection({ iceServers });
    this.peers.set(viewerId, peer);
    this.onChange(this.peers.size);
    peer.onicecandidate = ({ candidate }) => {
      const json = candidate?.toJSON();
      if (json?.candidate) this.send({ type: 'candidate', viewerId, candidate: { ...json, candidate: json.candidate } });
    };
    peer.onconnectionstatechange = () => {
      // A viewer that went away without saying so (closed tab, lost network) fails its checks.
      if ((peer.connectionState === 'failed' || peer.connectionState === 'closed') && this.peers.get(viewerId) === peer) {
        this.closePeer(viewerId);
        this.releaseIfIdle();
      }
    };
    try {
      for (const track of stream.getVideoTracks()) peer.addTrack(track, stream);
      const offer = await peer.createOffer();
      await peer.setLocalDescription(offer);
      if (this.peers.get(viewerId) !== peer) return;
      this.send({ type: 'offer', viewerId, sdp: peer.localDescription?.sdp ?? offer.sdp ?? '' });
    } catch (error) {
      this.fail(viewerId, `The offer could not be made: ${describe(error)}`);
    }
  }

  /** One capture for every viewer; asking the user again only after the last one left. */
  private capture(): Promise<MediaStreamLike> {
    if (!this.stream) {
      const stream = this.source().then((captured) => {
        // The user ended the sharing from the browser's own controls.
        for (const track of captured.getVideoTracks()) track.addEventListener('ended', () => this.stream === stream && this.stopAll('The device stopped sharing its screen'));
        return captured;
      });
      this.stream = stream;
      stream.catch(() => {
        if (this.stream === stream) this.stream = null;
      });
    }
    return this.stream;
  }

  private refuse(viewerId: string, error: unknown): void {
    const name = (error as { name?: string } | null)?.name;
    if (error instanceof ScreenSourceUnavailable) {
      this.send({ type: 'screen_capture_not_supported', viewerId, message: SCREEN_CAPTURE_TEXTS.notSupported });
    } else if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
      this.send({ type: 'screen_capture_permission_denied', viewerId, message: SCREEN_CAPTURE_TEXTS.permissionRequired });
    } else {
      this.send({ type: 'screen_capture_failed', viewerId, message: `The screen could not be captured: ${describe(error)}` });
    }
  }

  private fail(viewerId: string, message: string): void {
    if (!this.peers.has(viewerId)) return;
    this.closePeer(viewerId);
    this.send({ type: 'screen_capture_failed', viewerId, message: message.slice(0, 500) });
    this.releaseIfIdle();
  }

  private closePeer(viewerId: string): void {
    const peer = this.peers.get(viewerId);
    if (!peer) return;
    this.peers.delete(viewerId);
    peer.onicecandidate = null;
    peer.onconnectionstatechange = null;
    peer.close();
    this.onChange(this.peers.size);
  }

  /** Nobody watches: the capture ends (the browser's sharing indicator goes away). */
  private releaseIfIdle(): void {
    if (this.peers.size > 0 || !this.stream) return;
    const stream = this.stream;
    this.stream = null;
    stream.then((captured) => {
      for (const track of captured.getTracks()) track.stop();
    }, () => {});
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
