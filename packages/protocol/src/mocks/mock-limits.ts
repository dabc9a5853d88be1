// Free of zod: the device SDK and the handler sandbox read these without the schemas.

/** Business constants and limits of mocked routes (spec 002 §9) and our own size bounds. */
export const MOCK_LIMITS = {
  statusMin: 100,
  statusMax: 599,
  defaultStatus: 200,
  maxTags: 10,
  maxTagLength: 100,
  maxDescription: 2000,
  /** Largest static body of a route (characters). */
  maxBodyChars: 512 * 1024,
  /** Largest dynamic handler script (characters). */
  maxCodeChars: 64 * 1024,
  maxHeaders: 100,
  maxHeaderName: 256,
  maxHeaderValue: 8 * 1024,
  maxUrlLength: 2048,
  /** A route keeps the newest console entries of its handler, up to this many. */
  maxConsoleEntries: 100,
  maxConsoleMessage: 2000,
  /** Longest delay before a mocked answer is given. */
  maxDelayMs: 60_000,
  /** Routes per device. */
  maxRoutesPerDevice: 1000,
  /**
   * What a device's enabled routes may hold in all (their JSON): the whole set travels in one
   * frame, which must stay well within what a device's websocket accepts.
   */
  maxDeviceSetBytes: 8 * 1024 * 1024,
  /** Live-update auto-save pause (spec 002 §4). */
  liveUpdateDelayMs: 1500,
  /** Mocked-route toasts (spec 002 §9). */
  toastMs: 2000,
} as const;
