// Constants of remote screen capture, free of zod so that device SDKs can import them.

/** Spec 000 §8, spec 001 §8: the texts the dashboard shows. */
export const SCREEN_CAPTURE_TEXTS = {
  permissionRequired: 'Screen Recording Permission Required',
  /** A device that cannot broadcast (on iOS the screen-share SDK variant is required). */
  notSupported: 'Screen Recording not supported!',
} as const;

export const SCREEN_CAPTURE_LIMITS = {
  /** An SDP offer or answer for one video track is a few kilobytes. */
  maxSdpChars: 32_000,
  maxCandidateChars: 1000,
} as const;
