// Constants of user defaults (spec 002 'User defaults view'), kept free of zod: the SDK checks
// what it stores against them without carrying the schemas into an app's bundle.

/** The oldest device protocol version whose SDKs answer the `user_defaults` command. */
export const USER_DEFAULTS_MIN_PROTOCOL_VERSION = 2;

export const USER_DEFAULTS_LIMITS = {
  /** Suite (group) names and keys, in characters. */
  maxNameLength: 200,
  maxKeyLength: 200,
  /** One value written as JSON, in characters. */
  maxValueLength: 64 * 1024,
  /** Entries of one device, all groups together. */
  maxEntries: 2000,
} as const;

/** How long a device has to answer a user-defaults command before the call answers 504. */
export const USER_DEFAULTS_TIMEOUT_MS = 5000;

/** The group an entry goes to when the app or the dashboard names none (iOS's standard suite). */
export const STANDARD_USER_DEFAULTS_SUITE = 'standard';
