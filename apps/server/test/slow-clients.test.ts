import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, describeApi, startTestServer, type TestServer } from './helpers';

const opened = new Set<net.Socket>();

/** A raw client socket, for what fetch cannot do: send a request slowly, or only part of it. */
function rawSocket(url: string): Promise<net.Socket & { received: () => string; ended: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', () => undefined);
    opened.add(socket);
    socket.once('connect', () => resolve(Object.assign(socket, { received: () => data, ended })));
    socket.once('error', reject);
  });
}

/** Writes one byte every `everyMs` until the socket closes; answers how many were written. */
function trickle(socket: net.Socket, everyMs: number): Promise<number> {
  let written = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return;
      socket.write('x');
      written++;
    }, everyMs);
    socket.once('close', () => {
      clearInterval(timer);
      resolve(written);
    });
  });
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => Promise.race([
  promise,
  new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} still open after ${ms} ms`)), ms)),
]);

// Issue 12, defect 5: with Fastify's requestTimeout at 0 a client that trickles a body (or its
// headers) one byte at a time held its connection for as long as it liked; 20 of them stayed
// open for 330 s. The limits are set small here so that the test reads the same story quickly.
describeApi('slow clients: request and header timeouts, connections per IP', () => {
  let server: TestServer;
  const limits = { requestTimeoutMs: 1500, headersTimeoutMs: 1000, idleTimeoutMs: 5000, maxConnectionsPerIp: 8 };

  beforeAll(async () => {
    server = await startTestServer({ config: { http: limits } });
  });
  afterAll(async () => {
    // Before the fix nothing ends these, and the server's close would wait for them.
    for (const socket of opened) socket.destroy();
    await server?.close();
  });

  it('closes a connection that trickles its body one byte at a time, with 408', async () => {
    const socket = await rawSocket(server.url);
    socket.write('POST /v1/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    // A byte every 200 ms keeps the socket far from idle: only the whole-request limit can end it.
    const written = trickle(socket, 200);
    await within(socket.ended, 15_000, 'the trickling connection');
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(await written).toBeGreaterThan(0);
  });

  it('closes a connection that trickles its headers (slowloris)', async () => {
    const socket = await rawSocket(server.url);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    void trickle(socket, 200);
    await within(socket.ended, 15_000, 'the slow-header connection');
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses connections of one address beyond the cap, and takes it again once one closes', async () => {
    const held = await Promise.all(Array.from({ length: limits.maxConnectionsPerIp }, () => rawSocket(server.url)));
    try {
      const extra = await rawSocket(server.url);
      await within(extra.ended, 5000, 'the connection over the cap');
      expect(extra.received()).toBe('');

      // The held ones still work.
      held[0]!.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await within(new Promise<void>((resolve) => held[0]!.once('data', () => resolve())), 5000, 'the answer on a held connection');
      expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await Promise.all(held.map((s) => s.ended));
    // The server counts the closes on its side; a new connection is served once it has.
    await expect.poll(async () => (await apiClient(server.url).get('/healthz').catch(() => ({ status: 0 }))).status, { timeout: 5000 }).toBe(200);
  });

  it('holds the share host to the same limits', async () => {
    const shareAddress = server.app.shareServer.server.address();
    if (!shareAddress || typeof shareAddress !== 'object') {
      await server.app.shareServer.listen({ port: 0, host: '127.0.0.1' });
    }
    const address = server.app.shareServer.server.address() as net.AddressInfo;
    const socket = await rawSocket(`http://127.0.0.1:${address.port}`);
    socket.write('GET /shared-sessions/x/data.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    void trickle(socket, 200);
    await within(socket.ended, 15_000, 'the slow-header connection to the share host');
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408/);
  });
});
