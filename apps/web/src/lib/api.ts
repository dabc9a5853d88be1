import type { z } from 'zod';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, ErrorBody } from '@spyglass/protocol';
import { readStoredProfile, readToken } from './storage';

/** A failed call. `message` is the server's error when it sent one, else the caller's fallback. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly body: ErrorBody | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  body?: unknown;
  /** Extra query parameters, placed after `lbg` and before `test-mode` (spec 000 §7.1). */
  query?: Record<string, QueryValue>;
  /** Shown when the server gives no message (the generic messages of spec 000 §8). */
  errorMessage?: string;
  signal?: AbortSignal;
  /** Lets a call outlive the page (settings flushed on page hide). */
  keepalive?: boolean;
}

export const TRIAL_EXPIRED_EVENT = 'trialExpired';

const unauthorizedListeners = new Set<() => void>();

/** Called when the server refuses the stored token (revoked by a password change elsewhere, expired...). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * The query string of spec 000 §7.1: `lbg` from the profile's loadBalancerGroup, then the call's
 * own parameters, then `test-mode` when the page address carries it.
 */
export function buildApiUrl(path: string, query: Record<string, QueryValue>, lbg: string | null | undefined, pageSearch: string): string {
  const params = new URLSearchParams();
  if (lbg) params.set('lbg', lbg);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const testMode = new URLSearchParams(pageSearch).get('test-mode');
  if (testMode !== null) params.set('test-mode', testMode || 'true');
  const qs = params.toString();
  return `/v1${path}${qs ? `?${qs}` : ''}`;
}

export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  return buildApiUrl(path, query, readStoredProfile()?.loadBalancerGroup, window.location.search);
}

/**
 * The one way the web client talks to the API: the headers of spec 000 §7.1, the stored token,
 * zod-checked answers, and the 402 trial-expired signal.
 */
export async function request<S extends z.ZodType>(method: string, path: string, schema: S, options: RequestOptions = {}): Promise<z.output<S>> {
  const token = readToken();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
    [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  // A JSON content type with an empty body is malformed JSON to the server, so body-carrying
  // methods always send at least an empty object.
  const body = method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(options.body ?? {});

  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), { method, headers, body, signal: options.signal, keepalive: options.keepalive });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(options.errorMessage ?? 'The server could not be reached. Check your connection and try again.', 0);
  }

  const json = await readJson(response);
  if (!response.ok) {
    const parsed = ErrorBody.safeParse(json);
    const errorBody = parsed.success ? parsed.data : null;
    if (response.status === 402 && errorBody?.trialExpired) window.dispatchEvent(new Event(TRIAL_EXPIRED_EVENT));
    if (response.status === 401 && token) unauthorizedListeners.forEach((listener) => listener());
    throw new ApiError(errorBody?.error ?? options.errorMessage ?? `Request failed (${response.status})`, response.status, errorBody);
  }

  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected answer to ${method} ${path}`, parsed.error.issues);
    throw new ApiError(options.errorMessage ?? 'Unexpected answer from the server', response.status);
  }
  return parsed.data;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Options = Omit<RequestOptions, 'body'>;

export const api = {
  get: <S extends z.ZodType>(path: string, schema: S, options?: Options) => request('GET', path, schema, options),
  post: <S extends z.ZodType>(path: string, body: unknown, schema: S, options?: Options) => request('POST', path, schema, { ...options, body }),
  put: <S extends z.ZodType>(path: string, body: unknown, schema: S, options?: Options) => request('PUT', path, schema, { ...options, body }),
  patch: <S extends z.ZodType>(path: string, body: unknown, schema: S, options?: Options) => request('PATCH', path, schema, { ...options, body }),
  delete: <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) => request('DELETE', path, schema, options),
};

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message;
  return fallback;
}
