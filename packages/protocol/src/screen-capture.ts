import { z } from 'zod';
import { SCREEN_CAPTURE_LIMITS } from './screen-capture-constants';

export * from './screen-capture-constants';

/**
 * Remote screen capture (spec 001 §4, §7; docs/protocol.md "Screen capture"): WebRTC with the
 * device as the broadcaster and each dashboard connection a viewer of its own. The signalling
 * travels over the two existing websockets; the server only relays it, addressed by the viewer's
 * live `connectionId` on the device side and by the device id (`target`) on the viewer side.
 */

/** A session description (SDP) as `RTCSessionDescription.sdp` gives it. */
const Sdp = z.string().min(1).max(SCREEN_CAPTURE_LIMITS.maxSdpChars);

/** `RTCIceCandidate.toJSON()`; the end-of-candidates marker is not sent. */
export const IceCandidate = z.object({
  candidate: z.string().max(SCREEN_CAPTURE_LIMITS.maxCandidateChars),
  sdpMid: z.string().max(64).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
  usernameFragment: z.string().max(256).nullable().optional(),
});
export type IceCandidate = z.infer<typeof IceCandidate>;

/** The viewer a device-side message is for: the `connectionId` of its live connection (`init`). */
const ViewerId = z.string().min(1).max(100);
/** The broadcaster a viewer's message is for: the device id. */
const Target = z.string().min(1).max(200);
const Reason = z.string().max(500);

// ---- device → server ----
export const DeviceOfferFrame = z.object({ type: z.literal('offer'), viewerId: ViewerId, sdp: Sdp });
export const DeviceCandidateFrame = z.object({ type: z.literal('candidate'), viewerId: ViewerId, candidate: IceCandidate });
/** The device cannot (or no longer) show its screen to this viewer; `message` says why. */
export const DeviceScreenCaptureErrorFrame = z.object({
  type: z.enum(['screen_capture_permission_denied', 'screen_capture_not_supported', 'screen_capture_failed', 'screen_capture_ended']),
  viewerId: ViewerId,
  message: Reason.optional(),
});
export type DeviceScreenCaptureFrame =
  | z.infer<typeof DeviceOfferFrame> | z.infer<typeof DeviceCandidateFrame> | z.infer<typeof DeviceScreenCaptureErrorFrame>;

// ---- server → device ----
export const ServerAnswerFrame = z.object({ type: z.literal('answer'), viewerId: ViewerId, sdp: Sdp });
export const ServerCandidateFrame = z.object({ type: z.literal('candidate'), viewerId: ViewerId, candidate: IceCandidate });
export type ServerScreenCaptureFrame = z.infer<typeof ServerAnswerFrame> | z.infer<typeof ServerCandidateFrame>;

/** An entry of `RTCConfiguration.iceServers`. */
export const IceServer = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;

/** Arguments of the `start_screen_capture` command: whom to offer the screen to, through which relays. */
export const StartScreenCaptureArgs = z.object({ viewerId: ViewerId, iceServers: z.array(IceServer) });
export type StartScreenCaptureArgs = z.infer<typeof StartScreenCaptureArgs>;
/** Arguments of `stop_screen_capture`: one viewer's session ends (the last one ends the capture). */
export const StopScreenCaptureArgs = z.object({ viewerId: ViewerId });

// ---- viewer → server ----
export const ViewerAnswerMessage = z.object({ type: z.literal('answer'), target: Target, sdp: Sdp });
export const ViewerCandidateMessage = z.object({ type: z.literal('candidate'), target: Target, candidate: IceCandidate });

// ---- server → viewer ----
export const ViewerOfferMessage = z.object({ type: z.literal('offer'), deviceId: z.string(), sdp: z.string() });
export const ViewerCandidateRelayed = z.object({ type: z.literal('candidate'), deviceId: z.string(), candidate: IceCandidate });
/**
 * Why a capture cannot go on: the device's own reports, plus `screen_capture_unavailable` (no
 * connection of the device could be reached) and `screen_capture_refused` (the viewer sent a
 * signalling message the server could not accept; `deviceId` is its target when it had one).
 */
export const ViewerScreenCaptureError = z.object({
  type: z.enum([
    'screen_capture_permission_denied', 'screen_capture_not_supported', 'screen_capture_failed', 'screen_capture_ended',
    'screen_capture_unavailable', 'screen_capture_refused',
  ]),
  deviceId: z.string().nullable(),
  message: z.string(),
});
export type ViewerScreenCaptureError = z.infer<typeof ViewerScreenCaptureError>;

// ---- REST ----
/** GET /v1/screen-capture/turn (spec 001 §3 'Screen capture credentials'). */
export const ScreenCaptureCredentials = z.object({ iceServers: z.array(IceServer) });
export type ScreenCaptureCredentials = z.infer<typeof ScreenCaptureCredentials>;
/** Query of start- and stop-capture-screen: the live connection that watches. */
export const ScreenCaptureQuery = z.object({ viewerId: ViewerId });
