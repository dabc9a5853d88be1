import crypto from 'node:crypto';
import { SCREEN_CAPTURE_TEXTS, type Device, type IceServer, type StartScreenCaptureArgs } from '@spyglass/protocol';
import type { ScreenCaptureRelays } from '../config';
import { conflict, upstreamFailed } from '../errors';
import type { DeviceCommands } from '../live/device-commands';

/** Asking for the screen may show a permission prompt first: the device answers at once and reports the outcome later. */
const CAPTURE_COMMAND_TIMEOUT_MS = 10_000;

/**
 * TURN credentials in the TURN REST convention (draft-uberti-behave-turn-rest, coturn's
 * `use-auth-secret`): the username is `<expiry, unix seconds>:<user>`, the credential the base64
 * HMAC-SHA1 of that username keyed with the shared secret. The TURN server recomputes it and
 * refuses it once the expiry has passed, so the secret itself never reaches a browser or device.
 */
export function turnCredential(secret: string, userId: string, expiresAtS: number): { username: string; credential: string } {
  const username = `${expiresAtS}:${userId}`;
  return { username, credential: crypto.createHmac('sha1', secret).update(username).digest('base64') };
}

/** The ICE servers for one account's peers: STUN only when no TURN server is configured. */
export function iceServersFor(relays: ScreenCaptureRelays, userId: string, nowMs: number): IceServer[] {
  const servers: IceServer[] = [];
  if (relays.stunUrls.length > 0) servers.push({ urls: relays.stunUrls });
  if (relays.turnUrls.length > 0 && relays.turnSecret) {
    const expiresAtS = Math.floor(nowMs / 1000) + relays.turnCredentialTtlS;
    servers.push({ urls: relays.turnUrls, ...turnCredential(relays.turnSecret, userId, expiresAtS) });
  }
  return servers;
}

/**
 * Asks the device to offer its screen to one viewer connection (`start_screen_capture`), with
 * relay credentials of its own. 409 when it is offline or says it cannot share its screen
 * (`isScreenShareEnabled: false`, spec 001 §5: iOS needs the screen-share SDK variant); 502 with
 * the device's reason when it refuses. The offer, or why there is none, follows on the live channel.
 */
export async function startScreenCapture(
  commands: DeviceCommands, relays: ScreenCaptureRelays, userId: string, device: Device, viewerId: string, nowMs: number,
): Promise<void> {
  if (device.isScreenShareEnabled === false) throw conflict(SCREEN_CAPTURE_TEXTS.notSupported);
  const args: StartScreenCaptureArgs = { viewerId, iceServers: iceServersFor(relays, userId, nowMs) };
  const result = await commands.send(userId, device.id, 'start_screen_capture', args, CAPTURE_COMMAND_TIMEOUT_MS);
  if (!result.ok) throw upstreamFailed(result.error || SCREEN_CAPTURE_TEXTS.notSupported);
}

/** Ends one viewer's session on the device (`stop_screen_capture`); the device stops capturing after its last one. */
export async function stopScreenCapture(commands: DeviceCommands, userId: string, deviceId: string, viewerId: string): Promise<void> {
  const result = await commands.send(userId, deviceId, 'stop_screen_capture', { viewerId }, CAPTURE_COMMAND_TIMEOUT_MS);
  if (!result.ok) throw upstreamFailed(result.error || 'The device could not stop the capture');
}
