/**
 * How a captured body is shown (spec 001 'Details panel': JSON tree, XML, HTML source or a
 * sandboxed frame, form data, images, raw text). Decided from the Content-Type header and the
 * body's encoding, then from the text itself when the type is missing or generic.
 */
import type { HeaderMap } from '@spyglass/protocol';

export type BodyKind = 'empty' | 'invalid' | 'json' | 'xml' | 'html' | 'form' | 'image' | 'video' | 'binary' | 'text';

export interface CapturedBodyFields {
  /** `unknown`, not `string`: sessions and older data may carry an object where text belongs. */
  body?: unknown;
  bodyEncoding?: 'utf8' | 'base64';
  headers: HeaderMap;
}

/** Spec 001 'Details panel': JSON bodies over this many characters are shown as Large JSON. */
export const LARGE_JSON_CHARS = 10_000;

/**
 * JSON bodies from this many characters are parsed and indented in a worker (json-format.ts):
 * the main thread only looks at how they start.
 */
export const OFF_THREAD_JSON_CHARS = 100_000;

/** Proxyman's limit: bodies from 5 MB are shown only when asked ('Show anyway'). */
export const SHOW_ANYWAY_CHARS = 5 * 1024 * 1024;

/** A header's value whatever the case of its name (HTTP names are case-insensitive). */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const JSON_TYPE = /^application\/(json|ld\+json|problem\+json|x-ndjson|graphql-response\+json)$|\+json$/;
const XML_TYPE = /^(application|text)\/xml$|\+xml$/;
const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)$/;
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Only these become an `<img>`/`<video>` source; anything else that claims to be media is shown as bytes. */
const IMAGE_TYPE = /^image\/(png|jpeg|jpg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)$/;
const VIDEO_TYPE = /^video\/(mp4|webm|ogg|quicktime)$/;

/** The body's kind. `contentType` is the Content-Type header of the same request or response. */
export function detectBodyKind(body: unknown, encoding: 'utf8' | 'base64' | undefined, contentType: string | undefined): BodyKind {
  if (body === undefined || body === null || body === '') return 'empty';
  if (typeof body !== 'string') return 'invalid';
  const type = mediaType(contentType);
  if (encoding === 'base64') {
    if (IMAGE_TYPE.test(type) || (!type && sniffImageType(body))) return 'image';
    if (VIDEO_TYPE.test(type)) return 'video';
    return 'binary';
  }
  if (type === 'image/svg+xml') return 'image';
  if (JSON_TYPE.test(type)) return parsesAsJson(body) ? 'json' : 'text';
  if (HTML_TYPE.test(type)) return 'html';
  if (XML_TYPE.test(type)) return 'xml';
  if (type === FORM_TYPE) return 'form';
  // Servers often send JSON as text/plain or without a type; the text decides.
  const start = body.trimStart();
  if ((start.startsWith('{') || start.startsWith('[')) && parsesAsJson(body)) return 'json';
  if (/^<!doctype html|^<html[\s>]/i.test(start)) return 'html';
  if (start.startsWith('<?xml')) return 'xml';
  return 'text';
}

/** Large bodies are not parsed here: the worker that formats them tells when they are not JSON. */
const parsesAsJson = (text: string): boolean => text.length >= OFF_THREAD_JSON_CHARS || parseJson(text).ok;

let lastText: string | undefined;
let lastParse: { ok: true; value: unknown } | { ok: false } = { ok: false };

/**
 * JSON.parse with the last answer kept: detecting the kind and drawing the tree parse the same
 * body, and a 5 MB body costs tens of milliseconds to parse. Equal strings that are the same
 * object compare in constant time.
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === lastText) return lastParse;
  try {
    lastParse = { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    lastParse = { ok: false };
  }
  lastText = text;
  return lastParse;
}

/** The image type a base64 body's first bytes announce (PNG, JPEG, GIF, WebP), when no header says it. */
export function sniffImageType(base64: string): string | undefined {
  let head: string;
  try {
    head = atob(base64.slice(0, 16));
  } catch {
    return undefined;
  }
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The media type an image or video body is shown as: the header's when it is one we allow, else the sniffed one. */
export function mediaTypeOf(body: string, encoding: 'utf8' | 'base64' | undefined, contentType: string | undefined): string {
  const type = mediaType(contentType);
  if (IMAGE_TYPE.test(type) || VIDEO_TYPE.test(type)) return type === 'image/jpg' ? 'image/jpeg' : type;
  return (encoding === 'base64' ? sniffImageType(body) : undefined) ?? 'application/octet-stream';
}

/** Form fields of a urlencoded body, in order, duplicates kept. */
export function formFields(body: string): Array<[string, string]> {
  return [...new URLSearchParams(body)];
}

/** Bytes of a base64 string without decoding it (padding aware). */
export function base64ByteLength(base64: string): number {
  const clean = base64.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
