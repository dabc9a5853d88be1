import { SCREEN_CAPTURE_TEXTS, type IceServer, type ViewerInbound, type ViewerOutbound } from '@spyglass/protocol';
import { ApiError } from '../../lib/api';

/** Spec 001 §4: idle, then capturing (connecting, live) until it ends or is denied. */
export type CaptureState =
  | { status: 'idle' }
  | { status: 'connecting' }
  | { status: 'live'; stream: MediaStream }
  | { status: 'ended'; message: string }
  | { status: 'denied' }
  | { status: 'not_supported' }
  | { status: 'failed'; message: string };

type Signal = Extract<ViewerInbound, { type: 'answer' | 'candidate' }>;

/** What a session needs from the page: the live connection, the API and WebRTC (tests pass fakes). */
export interface CaptureDeps {
  live: {
    readonly connectionId: string | null;
    signal(message: Signal): boolean;
    subscribe(listener: (message: ViewerOutbound) => void): () => void;
  };
  fetchIceServers(): Promise<IceServer[]>;
  start(deviceId: string, viewerId: string): Promise<unknown>;
  stop(deviceId: string, viewerId: string): Promise<unknown>;
  createPeer(configuration: RTCConfiguration): RTCPeerConnection;
}

/** Consecutive reconnects after the peer connection failed before the session gives up. */
const MAX_RECOVERIES = 3;
/** A connection 'disconnected' this long (a changed network) is rebuilt rather than waited for. */
const DISCONNECTED_GRACE_MS = 4000;

export const ENDED_BY_VIEWER = 'The screen capture was stopped';
export const CONNECTION_LOST = 'The connection to the device was lost';

/**
 * One dashboard's view of one device's screen: the viewer side of docs/protocol.md "Screen
 * capture". It asks the device (start-capture-screen) to offer to this live connection, answers the
 * offer, trades candidates, and rebuilds the peer connection after a network change. The video
 * element takes `state.stream` when live.
 */
export class ScreenCaptureSession {
  private state: CaptureState = { status: 'idle' };
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private peer: RTCPeerConnection | null = null;
  private viewerId: string | null = null;
  private stream: MediaStream | null = null;
  /** Candidates that arrived before the offer was applied. */
  private early: RTCIceCandidateInit[] = [];
  /** Increases with each attempt, so that a stale attempt's late answers are dropped. */
  private attempt = 0;
  private recoveries = 0;
  private disconnectedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly deviceId: string, private readonly deps: CaptureDeps) {
    this.unsubscribe = deps.live.subscribe((message) => this.onMessage(message));
  }

  getState = (): CaptureState => this.state;

  onChange = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get active(): boolean {
    return this.state.status === 'connecting' || this.state.status === 'live';
  }

  /** `screenShareEnabled: false`: the device said it cannot (iOS without the screen-share SDK variant). */
  start(screenShareEnabled = true): void {
    if (this.active) return;
    if (!screenShareEnabled) {
      this.setState({ status: 'not_supported' });
      return;
    }
    this.recoveries = 0;
    void this.connect();
  }

  stop(): void {
    if (!this.active) return;
    const viewerId = this.viewerId;
    this.attempt++;
    this.close();
    if (viewerId) this.deps.stop(this.deviceId, viewerId).catch(() => {});
    this.setState({ status: 'ended', message: ENDED_BY_VIEWER });
  }

  /** The panel went away: the device stops sending to this connection. */
  dispose(): void {
    this.stop();
    this.unsubscribe();
    this.listeners.clear();
  }

  private async connect(): Promise<void> {
    const attempt = ++this.attempt;
    this.close();
    this.setState({ status: 'connecting' });
    try {
      const viewerId = this.deps.live.connectionId;
      if (!viewerId) throw new Error('The live connection is not open');
      const iceServers = await this.deps.fetchIceServers();
      if (attempt !== this.attempt) return;
      const peer = this.deps.createPeer({ iceServers });
      this.peer = peer;
      this.viewerId = viewerId;
      this.watch(peer, attempt);
      await this.deps.start(this.deviceId, viewerId);
    } catch (error) {
      if (attempt !== this.attempt) return;
      this.close();
      const message = error instanceof Error ? error.message : String(error);
      if (message === SCREEN_CAPTURE_TEXTS.notSupported) this.setState({ status: 'not_supported' });
      else this.setState({ status: 'failed', message: error instanceof ApiError || error instanceof Error ? message : 'Failed to start the screen capture' });
    }
  }

  private watch(peer: RTCPeerConnection, attempt: number): void {
    peer.ontrack = (event) => {
      this.stream = event.streams[0] ?? new MediaStream([event.track]);
      if (peer.connectionState === 'connected') this.goLive();
    };
    peer.onicecandidate = (event) => {
      const json = event.candidate?.toJSON();
      if (!json?.candidate) return;
      const { candidate, sdpMid, sdpMLineIndex, usernameFragment } = json;
      this.deps.live.signal({ type: 'candidate', target: this.deviceId, candidate: { candidate, sdpMid, sdpMLineIndex, usernameFragment } });
    };
    peer.onconnectionstatechange = () => {
      if (attempt !== this.attempt) return;
      clearTimeout(this.disconnectedTimer);
      switch (peer.connectionState) {
        case 'connected':
          this.goLive();
          break;
        case 'disconnected':
          this.disconnectedTimer = setTimeout(() => this.recover(), DISCONNECTED_GRACE_MS);
          break;
        case 'failed':
          this.recover();
          break;
      }
    };
  }

  private goLive(): void {
    if (!this.stream || this.state.status !== 'connecting') return;
    this.recoveries = 0;
    this.setState({ status: 'live', stream: this.stream });
  }

  /** The network changed under a running capture: a new peer connection, a new offer. */
  private recover(): void {
    if (!this.active) return;
    if (this.recoveries >= MAX_RECOVERIES) {
      const viewerId = this.viewerId;
      this.close();
      if (viewerId) this.deps.stop(this.deviceId, viewerId).catch(() => {});
      this.setState({ status: 'failed', message: CONNECTION_LOST });
      return;
    }
    this.recoveries++;
    void this.connect();
  }

  private onMessage(message: ViewerOutbound): void {
    if (message.type === 'init') {
      // The live connection came back with a new id while the offer was still awaited: ask again.
      if (this.state.status === 'connecting' && this.viewerId !== null && message.connectionId !== this.viewerId) void this.connect();
      return;
    }
    if (!('deviceId' in message) || message.deviceId !== this.deviceId || !this.active) return;
    switch (message.type) {
      case 'offer':
        void this.answer(message.sdp, this.attempt);
        break;
      case 'candidate':
        if (this.peer?.remoteDescription) this.peer.addIceCandidate(message.candidate).catch(() => {});
        else this.early.push(message.candidate);
        break;
      case 'screen_capture_permission_denied':
        this.close();
        this.setState({ status: 'denied' });
        break;
      case 'screen_capture_not_supported':
        this.close();
        this.setState({ status: 'not_supported' });
        break;
      case 'screen_capture_ended':
        this.close();
        this.setState({ status: 'ended', message: message.message });
        break;
      case 'screen_capture_failed':
      case 'screen_capture_unavailable':
      case 'screen_capture_refused':
        this.close();
        this.setState({ status: 'failed', message: message.message });
        break;
    }
  }

  private async answer(sdp: string, attempt: number): Promise<void> {
    const peer = this.peer;
    if (!peer) return;
    try {
      await peer.setRemoteDescription({ type: 'offer', sdp });
      for (const candidate of this.early.splice(0)) await peer.addIceCandidate(candidate).catch(() => {});
      const answer = await peer.createAnswer();
      await peer.setLocalDescription(answer);
      if (attempt !== this.attempt || !peer.localDescription) return;
      this.deps.live.signal({ type: 'answer', target: this.deviceId, sdp: peer.localDescription.sdp });
    } catch (error) {
      if (attempt !== this.attempt) return;
      this.close();
      this.setState({ status: 'failed', message: `The device's offer could not be used: ${(error as Error).message}` });
    }
  }

  private close(): void {
    clearTimeout(this.disconnectedTimer);
    this.early = [];
    this.stream = null;
    this.viewerId = null;
    const peer = this.peer;
    this.peer = null;
    if (!peer) return;
    peer.ontrack = null;
    peer.onicecandidate = null;
    peer.onconnectionstatechange = null;
    peer.close();
  }

  private setState(state: CaptureState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}
