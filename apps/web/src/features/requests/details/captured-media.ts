import { useEffect, useState } from 'react';

/** Bytes of a base64 string (atob is native and fast enough for the 5 MB body cap). */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Types whose object URL is harmless even when opened on its own in a tab (a blob: URL has the
 * page's origin): raster images and video. SVG can carry script, so it is shown from a data: URL
 * (an opaque origin that browsers also refuse to open at the top level); everything else is
 * downloaded as octet-stream bytes.
 */
const INERT_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|video\/(mp4|webm|ogg|quicktime))$/;

export function inertType(type: string): string {
  return INERT_TYPES.test(type) ? type : 'application/octet-stream';
}

/** The src of a captured image or video, or a download link's href, revoked when the value changes or the view goes away. */
export function useCapturedUrl(data: string | undefined, encoding: 'utf8' | 'base64' | undefined, type: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (data === undefined) {
      setUrl(undefined);
      return;
    }
    if (type === 'image/svg+xml') {
      setUrl(`data:image/svg+xml;base64,${encoding === 'base64' ? data : utf8Base64(data)}`);
      return;
    }
    let blob: Blob;
    try {
      blob = new Blob([encoding === 'base64' ? base64Bytes(data) : data], { type: inertType(type) });
    } catch {
      // Not valid base64: there is nothing to show.
      setUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [data, encoding, type]);
  return url;
}

function utf8Base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The first bytes as a hex dump with an ASCII column (binary bodies), 16 bytes a line. */
export function hexDump(bytes: Uint8Array, limit = 512): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, limit);
  for (let offset = 0; offset < end; offset += 16) {
    const row = bytes.subarray(offset, Math.min(offset + 16, end));
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

/** A file name for a download: the URL's last segment, or a fallback, with an extension for the type. */
export function downloadName(url: string | undefined, fallback: string, type: string): string {
  let base = fallback;
  try {
    const last = url ? new URL(url).pathname.split('/').filter(Boolean).pop() : undefined;
    if (last) base = decodeURIComponent(last);
  } catch {
    // Unparsable URL: the fallback name.
  }
  base = [...base].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('').slice(0, 120) || fallback;
  const extension = EXTENSIONS[type];
  return extension && !base.toLowerCase().endsWith(extension) && !/\.\w{2,5}$/.test(base) ? base + extension : base;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/svg+xml': '.svg',
  'application/pdf': '.pdf', 'video/mp4': '.mp4', 'video/webm': '.webm', 'application/octet-stream': '.bin',
};
