import type * as zlibTypes from 'node:zlib';
import { captureBytes, type CapturedBody } from '../body';

/** A body copied chunk by chunk as it flows past: at most `limit + 1` bytes kept, all counted. */
export interface BodyCopy {
  chunks: Uint8Array[];
  kept: number;
  size: number;
}

export const emptyBodyCopy = (): BodyCopy => ({ chunks: [], kept: 0, size: 0 });

export function copyChunk(body: BodyCopy, limit: number, chunk: unknown, encoding?: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk instanceof Uint8Array ? chunk : undefined;
  if (!bytes) return;
  body.size += bytes.byteLength;
  if (body.kept <= limit) {
    // One byte past the cap tells truncation apart from a body of exactly the cap.
    const part = bytes.subarray(0, limit + 1 - body.kept);
    body.chunks.push(Uint8Array.from(part));
    body.kept += part.byteLength;
  }
}

export function headerRecord(entries: Iterable<[string, unknown]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    const key = name.toLowerCase();
    out[key] = out[key] ? `${out[key]}, ${text}` : text;
  }
  return out;
}

const INFLATE = { gzip: 'gunzip', 'x-gzip': 'gunzip', deflate: 'inflate', br: 'brotliDecompress' } as const;

/**
 * The body as the app reads it: Node clients (axios, undici's fetch) undo gzip, deflate and
 * brotli, so this does too, off the main thread. A cut body stays as it came.
 */
export async function decodedBody(body: BodyCopy, headers: Record<string, string>, limit: number, zlib: typeof zlibTypes): Promise<CapturedBody | undefined> {
  if (body.size === 0) return undefined;
  let bytes: Uint8Array = Buffer.concat(body.chunks);
  let size = body.size;
  const method = INFLATE[headers['content-encoding']?.trim().toLowerCase() as keyof typeof INFLATE];
  if (method && body.kept === body.size) {
    try {
      const input = bytes;
      bytes = await new Promise<Uint8Array>((resolve, reject) => zlib[method](input, (error, out) => (error ? reject(error) : resolve(out))));
      size = bytes.byteLength;
    } catch {
      // not what the header said: keep the bytes as they came
    }
  }
  return captureBytes(bytes, headers['content-type'], limit, size);
}
