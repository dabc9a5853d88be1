/**
 * Copy as cURL (spec 001 'Request list screen', §7): a POSIX shell command that sends the
 * captured request again: method, URL, headers, and the body only for POST, PUT and PATCH.
 */
import type { HeaderMap, NetworkItem } from './items';

export const CURL_BODY_METHODS = ['POST', 'PUT', 'PATCH'] as const;

export interface CurlRequest {
  method: string;
  url: string;
  headers?: HeaderMap;
  body?: string | null;
  bodyEncoding?: 'utf8' | 'base64';
}

/**
 * One shell word for any string: single quotes keep every character literal (newlines, `$`,
 * backticks, backslashes, unicode); a single quote itself is closed, escaped and reopened.
 * NUL cannot be passed in an argument at all and is dropped.
 */
export function shellQuote(value: string): string {
  return `'${value.replace(/\0/g, '').replace(/'/g, `'\\''`)}'`;
}

/** Linux's limit on one argument (MAX_ARG_STRLEN), with room to spare. */
const MAX_ARGUMENT_BYTES = 120_000;

/** Headers curl computes itself; sending a captured one would contradict the body curl sends. */
const COMPUTED_HEADERS = new Set(['content-length']);

function headerArgument(name: string, value: string): string {
  // `-H 'Name:'` would remove the header; `Name;` is curl's way to send it with an empty value.
  return value === '' ? `${name};` : `${name}: ${value}`;
}

/** The command for a captured request; see `curlFromItem` for a network item. */
export function toCurl(request: CurlRequest): string {
  const method = request.method.toUpperCase();
  const headers = request.headers ?? {};
  const sendsBody = (CURL_BODY_METHODS as readonly string[]).includes(method) && request.body !== null && request.body !== undefined;
  const body = sendsBody ? request.body! : null;
  // A NUL byte cannot travel in an argument, and Linux caps one argument at 128 KiB: such
  // bodies reach curl through stdin from the shell's builtin printf, which has neither limit.
  const binary = body !== null && (request.bodyEncoding === 'base64' || body.includes('\0'));
  const viaStdin = body !== null && (binary || body.length * 3 > MAX_ARGUMENT_BYTES);

  const args: string[] = [];
  const url = request.url;
  args.push(url.startsWith('-') ? `--url ${shellQuote(url)}` : shellQuote(url));
  if (/[[\]{}]/.test(url)) args.push('--globoff');
  if (/\/\.\.?(\/|$|\?|#)/.test(url)) args.push('--path-as-is');
  if (method === 'HEAD') args.push('--head');
  else args.push(`-X ${shellQuote(method)}`);

  let hasContentType = false;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (COMPUTED_HEADERS.has(lower) || name.startsWith(':')) continue;
    if (lower === 'content-type') hasContentType = true;
    args.push(`-H ${shellQuote(headerArgument(name, headers[name]!))}`);
  }
  if (body !== null) {
    // Without this, curl would add its own form Content-Type the captured request did not have.
    if (!hasContentType) args.push(`-H ${shellQuote('Content-Type:')}`);
    args.push(viaStdin ? '--data-binary @-' : `--data-raw ${shellQuote(body)}`);
  }

  const command = `curl ${args.join(' \\\n  ')}`;
  if (!viaStdin || body === null) return command;
  if (!binary) return `printf '%s' ${shellQuote(body)} | ${command}`;
  const base64 = request.bodyEncoding === 'base64' ? body.replace(/\s+/g, '') : utf8Base64(body);
  return `printf '%s' ${shellQuote(base64)} | base64 --decode | ${command}`;
}

function utf8Base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Copy as CURL of a network item (the menu offers it only for network items). */
export function curlFromItem(item: NetworkItem): string {
  const { method, url, headers, body, bodyEncoding } = item.details.request;
  return toCurl({ method, url, headers, body, ...(bodyEncoding ? { bodyEncoding } : {}) });
}
