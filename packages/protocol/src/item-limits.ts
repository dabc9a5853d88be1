// Limits of items, kept free of zod: the schemas in items.ts use them, and so does the device
// SDK's own item check (which must not carry the schemas into an app's bundle).

/** The five captured item types (spec 001 §1). */
export const ITEM_TYPES = ['network', 'log', 'event', 'screenshot', 'firebaseAnalytics'] as const;
export const LOG_LEVELS = ['verbose', 'debug', 'info', 'notice', 'warning', 'error', 'critical', 'fault'] as const;

/** Limits on what one item may carry; larger bodies are cut by the SDK and refused by the server. */
export const ITEM_LIMITS = {
  /** Bodies above this size leave the row for the blob store (the row keeps a preview). */
  inlineBodyBytes: 64 * 1024,
  /** A preview of an offloaded body kept on the row. */
  bodyPreviewBytes: 2 * 1024,
  /** The largest body a device may send; the SDK truncates above it. */
  maxBodyBytes: 5 * 1024 * 1024,
  maxUrlLength: 16 * 1024,
  maxHeaders: 200,
  maxHeaderValue: 16 * 1024,
  maxMessageLength: 256 * 1024,
  maxTags: 20,
} as const;

/**
 * Longest text of each bounded item field (characters); the schemas of items.ts and the device
 * SDK's item check both read them.
 */
export const ITEM_TEXT_LIMITS = {
  id: 100,
  instant: 40,
  level: 20,
  tag: 100,
  method: 20,
  headerName: 1024,
  statusText: 200,
  httpVersion: 20,
  error: 2000,
  name: 500,
  category: 500,
  fileName: 1000,
  mimeType: 100,
  /** base64 of an image, or a body: twice the largest body. */
  encodedBody: ITEM_LIMITS.maxBodyBytes * 2,
  /** Frames of a log item's stack trace. */
  stackFrames: 500,
} as const;
