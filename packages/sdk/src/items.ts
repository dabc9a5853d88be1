import { v7 as uuidv7 } from 'uuid';
import type { AnalyticsDetails, DeviceItem, EventDetails, LogDetails, NetworkDetails, ScreenshotDetails, StackFrame } from '@spyglass/protocol';

/**
 * A time-ordered UUID (version 7, RFC 9562): ids made one after another sort one after another,
 * so the server's indexes on item ids grow at one end instead of at random places (random ids
 * made each stored item cost several times more). React Native and insecure browser contexts
 * lack `crypto.getRandomValues`, where the random bits come from `Math.random` instead.
 */
export function newItemId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === 'function') return uuidv7();
  const random = new Uint8Array(16);
  for (let i = 0; i < 16; i++) random[i] = Math.floor(Math.random() * 256);
  return uuidv7({ random });
}

export type LogLevel = 'verbose' | 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'fault';

/** Options of {@link Spyglass.log}. */
export interface LogOptions {
  level?: LogLevel;
  category?: string;
  subsystem?: string;
  name?: string;
  file?: string;
  line?: number;
  /** An Error's stack, or frames you built yourself. */
  stackTrace?: StackFrame[] | Error;
  metadata?: Record<string, unknown>;
  tags?: string[];
}

export interface EventOptions {
  category?: string;
  properties?: Record<string, unknown>;
  tags?: string[];
}

export interface ScreenshotInput {
  /** PNG or JPEG bytes, or their base64. */
  image: Uint8Array | string;
  name?: string;
  mimeType?: string;
  width?: number;
  height?: number;
}

export interface AnalyticsOptions {
  category?: string;
  level?: LogLevel;
  tags?: string[];
}

/** Adds the app's tags, when it gave any, to an item built as one literal (a spread of shared fields cost a third of a log). */
function tagged<I extends DeviceItem>(item: I, tags: string[] | undefined): I {
  if (tags?.length) item.tags = tags;
  return item;
}

let lastMs = Number.NaN;
let lastIso = '';
/** The current time as ISO 8601, formatted once per millisecond: an app logging in a loop formats the same instant many times. */
function now(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function buildLogItem(message: string, options: LogOptions = {}, id = newItemId()): DeviceItem {
  const level = options.level ?? 'info';
  const details: LogDetails = { message, level };
  if (options.category !== undefined) details.category = options.category;
  if (options.subsystem !== undefined) details.subsystem = options.subsystem;
  if (options.name !== undefined) details.name = options.name;
  if (options.metadata !== undefined) details.metadata = options.metadata;
  const stack = options.stackTrace instanceof Error ? parseStack(options.stackTrace.stack) : options.stackTrace;
  if (stack?.length) details.stackTrace = stack;
  const file = options.file ?? stack?.[0]?.fileName;
  const line = options.line ?? stack?.[0]?.lineNumber;
  if (file !== undefined) details.file = file;
  if (line !== undefined) details.line = line;
  return tagged({ id, createdAt: now(), type: 'log', level, details }, options.tags);
}

export function buildEventItem(name: string, options: EventOptions = {}, id = newItemId()): DeviceItem {
  const details: EventDetails = { name };
  if (options.category !== undefined) details.category = options.category;
  if (options.properties !== undefined) details.properties = options.properties;
  return tagged({ id, createdAt: now(), type: 'event', details }, options.tags);
}

export function buildScreenshotItem(input: ScreenshotInput, toBase64: (bytes: Uint8Array) => string, id = newItemId()): DeviceItem {
  const details: ScreenshotDetails = {
    name: input.name ?? `Screenshot ${now()}`,
    image: typeof input.image === 'string' ? input.image : toBase64(input.image),
    mimeType: input.mimeType ?? 'image/png',
  };
  if (input.width !== undefined) details.width = input.width;
  if (input.height !== undefined) details.height = input.height;
  return { id, createdAt: now(), type: 'screenshot', details };
}

export function buildAnalyticsItem(name: string, payload: Record<string, unknown> = {}, options: AnalyticsOptions = {}, id = newItemId()): DeviceItem {
  const details: AnalyticsDetails = { name, payload };
  if (options.category !== undefined) details.category = options.category;
  if (options.level !== undefined) details.level = options.level;
  const item: DeviceItem = { id, createdAt: now(), type: 'firebaseAnalytics', details };
  if (options.level) item.level = options.level;
  return tagged(item, options.tags);
}

export function buildNetworkItem(id: string, createdAt: string, details: NetworkDetails, extra: { isMocked?: boolean } = {}): DeviceItem {
  return { id, createdAt, type: 'network', ...(extra.isMocked ? { isMocked: true } : {}), details };
}

const V8_FRAME = /^\s*at (?:(.+?) \()?(?:(native)|(.+?):(\d+)(?::\d+)?)\)?$/;
const GECKO_FRAME = /^(.*?)@(.+?):(\d+)(?::\d+)?$/;

/** Frames of a V8 (Node, Chrome, Hermes) or JavaScriptCore/SpiderMonkey stack string. */
export function parseStack(stack: string | undefined): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    const v8 = V8_FRAME.exec(raw);
    if (v8) {
      frames.push(frame(v8[1], v8[3], v8[4], !!v8[2]));
      continue;
    }
    const gecko = GECKO_FRAME.exec(raw.trim());
    if (gecko && !raw.includes(' ')) frames.push(frame(gecko[1], gecko[2], gecko[3], false));
  }
  return frames;
}

function frame(fn: string | undefined, file: string | undefined, line: string | undefined, native: boolean): StackFrame {
  const out: StackFrame = {};
  const name = fn?.replace(/^async /, '').replace(/^new /, '');
  if (name) {
    const dot = name.lastIndexOf('.');
    if (dot > 0) {
      out.className = name.slice(0, dot);
      out.methodName = name.slice(dot + 1);
    } else {
      out.methodName = name;
    }
  }
  if (file) out.fileName = file;
  if (line) out.lineNumber = Number(line);
  if (native) out.isNativeMethod = true;
  return out;
}
