import type { Server } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

/** Limits of the HTTP listeners (the API host and the share host alike). */
export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this (408 after). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (408 after): slowloris. */
  headersTimeoutMs: number;
  /** A socket on which nothing moves either way for this long is closed. */
  idleTimeoutMs: number;
  /** Open connections one client address may hold at once; 0: no cap. */
  maxConnectionsPerIp: number;
}

/**
 * Fastify's own defaults leave `requestTimeout` and `connectionTimeout` at 0, so a client that
 * trickles a body one byte at a time keeps its connection (and the request's buffers) for ever.
 * Node checks the request and header deadlines on an interval (30 s by default); checking at a
 * quarter of the shorter one closes a slow client within about 1.25× its limit.
 */
export function httpServerOptions(limits: HttpLimits): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout'> & { http: object } {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs || Infinity);
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(shorter / 4))),
    },
  };
}

/**
 * Caps the connections one address holds: timeouts bound how long a slow client stays, this
 * bounds how many one client can keep open meanwhile. Refused sockets are destroyed before any
 * byte is read. Behind a proxy every client has the proxy's address (see `loadConfig`).
 */
export function capConnectionsPerIp(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
