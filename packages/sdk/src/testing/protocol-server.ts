import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEVICE_CLOSE_CODES, DeviceFrame, type DeviceItem, type HelloFrame } from '@spyglass/protocol';

/**
 * A device-protocol server reduced to what the SDK relies on: welcome after hello, cumulative
 * acks, items stored by id (upsert). Each test steers it to misbehave in one way.
 */
export class ProtocolServer {
  readonly wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  readonly hellos: HelloFrame[] = [];
  readonly frames: DeviceFrame[] = [];
  readonly stored = new Map<string, DeviceItem>();
  readonly seqs: number[] = [];
  sockets: WebSocket[] = [];
  /** Whether items frames are acknowledged (false: stored, never acked, like a commit lost with the socket). */
  acking = true;
  refuseKey = false;
  /** Connections on which nothing is answered any more, as if they went half-open. */
  private readonly silenced = new Set<WebSocket>();
  heartbeatIntervalMs = 15_000;

  constructor() {
    this.wss.on('connection', (socket) => {
      this.sockets.push(socket);
      socket.on('message', (data) => this.receive(socket, DeviceFrame.parse(JSON.parse(String(data)))));
    });
  }

  url = '';

  static async start(): Promise<ProtocolServer> {
    const server = new ProtocolServer();
    await new Promise<void>((resolve) => server.wss.once('listening', () => resolve()));
    server.url = `http://127.0.0.1:${(server.wss.address() as AddressInfo).port}`;
    return server;
  }

  private receive(socket: WebSocket, frame: DeviceFrame): void {
    this.frames.push(frame);
    if (this.silenced.has(socket)) return;
    if (frame.type === 'hello') {
      this.hellos.push(frame);
      if (this.refuseKey) {
        socket.send(JSON.stringify({ type: 'error', code: 'bad_api_key', message: 'Invalid API key' }));
        socket.close(DEVICE_CLOSE_CODES.badApiKey, 'Invalid API key');
        return;
      }
      socket.send(JSON.stringify({
        type: 'welcome', protocolVersion: 1, deviceId: frame.deviceId, featureToggles: { logs: true, network: true, prints: true, events: true },
        breakpointEnabled: false, serverTime: new Date().toISOString(), heartbeatIntervalMs: this.heartbeatIntervalMs, heartbeatTimeoutMs: this.heartbeatIntervalMs * 3,
        limits: { maxFrameBytes: 8 * 1024 * 1024, maxItemsPerFrame: 500, itemsPerSecond: 10_000 },
      }));
    } else if (frame.type === 'items') {
      this.seqs.push(frame.seq);
      for (const item of frame.items) this.stored.set(item.id, item);
      if (this.acking) socket.send(JSON.stringify({ type: 'ack', seq: frame.seq }));
    } else if (frame.type === 'ping') {
      socket.send(JSON.stringify({ type: 'pong', t: frame.t }));
    }
  }

  send(frame: unknown): void {
    this.sockets.at(-1)!.send(JSON.stringify(frame));
  }

  /** Stops answering on the current connections; new ones are served as usual. */
  silenceCurrent(): void {
    for (const socket of this.sockets) this.silenced.add(socket);
  }

  /** Cuts every connection the way a crashed server or a lost network would. */
  dropAll(): void {
    for (const socket of this.sockets) socket.terminate();
    this.sockets = [];
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
