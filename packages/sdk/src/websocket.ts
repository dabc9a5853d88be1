/** The part of the WHATWG WebSocket the SDK uses; `ws` in Node and every browser/RN socket fit it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export const OPEN = 1;

/** The runtime's own WebSocket (browsers, React Native, Deno, Bun, Node 22+). */
export async function globalWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global) return global;
  throw new Error('Spyglass: this runtime has no WebSocket; pass one as options.WebSocket');
}

/** `https://host/base` → `wss://host/base/ws?type=device`. */
export function deviceSocketUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws`;
  url.search = '?type=device';
  url.hash = '';
  return url.href;
}
