import type { DeviceItem } from '@spyglass/protocol';
import type { MockedBy, RequestInterceptor } from './interceptors';

/** What a capture module needs from the client it reports to. */
export interface CaptureHooks {
  /** False when network capture is off (feature toggle) or the URL is ignored. */
  shouldCapture(url: string): boolean;
  readonly maxBodyBytes: number;
  readonly interceptors: readonly RequestInterceptor[];
  record(item: DeviceItem): void;
  /**
   * Runs the real request of the fetch wrapper, marked so that lower layers leave it to the
   * wrapper: React Native's fetch is built on XMLHttpRequest, and Node's reports on the undici
   * channels.
   */
  around<T>(request: () => T): T;
  /** True while the fetch wrapper's own request is under way (see `around`). */
  recordedAbove(): boolean;
  /** The mock that answered or redirected a node:http request or an XMLHttpRequest, if one did. */
  mockedBy?(request: object): MockedBy | undefined;
}

export function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

export function queryOf(url: string): Record<string, string> | undefined {
  try {
    const params = new URL(url).searchParams;
    const out: Record<string, string> = {};
    let any = false;
    params.forEach((value, key) => {
      out[key] = value;
      any = true;
    });
    return any ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Relative URLs resolve against the page in browsers. */
export function absoluteUrl(url: string): string {
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.name}: ${error.message}${detail}`.slice(0, 2000);
  }
  return String(error).slice(0, 2000);
}
