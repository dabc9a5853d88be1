/** A body as it travels in a network item (see NetworkRequest/NetworkResponse in the protocol). */
export interface CapturedBody {
  body: string | null;
  bodyEncoding?: 'utf8' | 'base64';
  bodyTruncated?: boolean;
  bodySize?: number;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|x-ndjson|ld\+json|problem\+json|problem\+xml|soap\+xml|xhtml\+xml|yaml|x-yaml|csv|sql)\b)|[+/](json|xml)\b/i;

/** Whether a content type is shown as text; absent types are decided by the bytes themselves. */
export function isTextContentType(contentType: string | null | undefined): boolean {
  return !!contentType && TEXT_TYPES.test(contentType.trim());
}

const BASE64_CHUNK = 0x8000;

const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

export function bytesToBase64(bytes: Uint8Array): string {
  // Node's encoder is native; elsewhere btoa needs a binary string first.
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += BASE64_CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_CHUNK));
  }
  return btoa(binary);
}

const utf8 = new TextEncoder();

export function utf8Length(text: string): number {
  return utf8.encode(text).length;
}

/**
 * Text when the content type says so (or, with no type, when the bytes are valid UTF-8), base64
 * otherwise; cut at `maxBytes`. `totalSize` is the real size when only a prefix was read.
 */
export function captureBytes(bytes: Uint8Array, contentType: string | null | undefined, maxBytes: number, totalSize = bytes.length): CapturedBody {
  const truncated = totalSize > maxBytes || bytes.length > maxBytes;
  const kept = bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  const base: CapturedBody = { body: null, bodySize: Math.max(totalSize, bytes.length) };
  if (truncated) base.bodyTruncated = true;
  const asText = isTextContentType(contentType) ? decode(kept, false) : contentType ? undefined : decode(kept, !truncated);
  if (asText !== undefined) return { ...base, body: asText, bodyEncoding: 'utf8' };
  return { ...base, body: bytesToBase64(kept), bodyEncoding: 'base64' };
}

export function captureText(text: string, maxBytes: number): CapturedBody {
  const size = utf8Length(text);
  if (size <= maxBytes) return { body: text, bodyEncoding: 'utf8', bodySize: size };
  return { ...captureBytes(utf8.encode(text), 'text/plain', maxBytes), bodySize: size };
}

function decode(bytes: Uint8Array, fatal: boolean): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads a fetch/XHR request body as the app passed it, without consuming it. Streams cannot be
 * read without taking them from the app, so they are reported as not captured (`body: null`).
 */
export async function captureBodyInit(body: unknown, contentType: string | null | undefined, maxBytes: number): Promise<CapturedBody | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return captureText(body, maxBytes);
  if (body instanceof URLSearchParams) return captureText(body.toString(), maxBytes);
  if (body instanceof ArrayBuffer) return captureBytes(new Uint8Array(body), contentType, maxBytes);
  if (ArrayBuffer.isView(body)) return captureBytes(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), contentType, maxBytes);
  if (typeof Blob !== 'undefined' && body instanceof Blob) {
    return captureBytes(new Uint8Array(await body.arrayBuffer()), contentType ?? (body.type || null), maxBytes);
  }
  if (typeof FormData !== 'undefined' && body instanceof FormData) return captureText(describeFormData(body), maxBytes);
  return { body: null };
}

/** Form fields as `name=value` lines; files by name, type and size, as their bytes would be noise. */
function describeFormData(form: FormData): string {
  const lines: string[] = [];
  form.forEach((value, name) => {
    lines.push(typeof value === 'string' ? `${name}=${value}` : `${name}=<file ${(value as File).name || 'blob'} ${value.type || 'application/octet-stream'} ${value.size} bytes>`);
  });
  return lines.join('\n');
}

/** Reads at most `maxBytes` of a stream, then stops reading; answers the bytes and whether more followed. */
export async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; size: number; complete: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (kept < maxBytes) {
      const part = value.byteLength > maxBytes - kept ? value.subarray(0, maxBytes - kept) : value;
      chunks.push(part);
      kept += part.byteLength;
    }
    if (size > maxBytes) {
      // The app's own branch of the tee keeps flowing; this one is no longer needed.
      await reader.cancel().catch(() => undefined);
      return { bytes: concat(chunks, kept), size, complete: false };
    }
  }
  return { bytes: concat(chunks, kept), size, complete: true };
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
