// The parts of the browser's WebRTC and media APIs the broadcaster uses, typed here because the SDK
// compiles without the DOM library (it also builds for Node and React Native).

export interface MediaTrackLike {
  readonly kind: string;
  stop(): void;
  addEventListener(type: 'ended', listener: () => void): void;
}

export interface MediaStreamLike {
  getVideoTracks(): MediaTrackLike[];
  getTracks(): MediaTrackLike[];
}

export interface IceCandidateLike {
  toJSON(): { candidate?: string; sdpMid?: string | null; sdpMLineIndex?: number | null; usernameFragment?: string | null };
}

export interface PeerConnectionLike {
  readonly connectionState: string;
  readonly localDescription: { sdp: string } | null;
  onicecandidate: ((event: { candidate: IceCandidateLike | null }) => void) | null;
  onconnectionstatechange: (() => void) | null;
  addTrack(track: MediaTrackLike, stream: MediaStreamLike): unknown;
  createOffer(): Promise<{ type: string; sdp?: string }>;
  setLocalDescription(description: { type: string; sdp?: string }): Promise<void>;
  setRemoteDescription(description: { type: 'answer'; sdp: string }): Promise<void>;
  addIceCandidate(candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null; usernameFragment?: string | null }): Promise<void>;
  close(): void;
}

export type PeerConnectionConstructor = new (configuration: { iceServers: { urls: string[]; username?: string; credential?: string }[] }) => PeerConnectionLike;
