import { COMMAND_NAMES, DEVICE_LIMITS } from '@spyglass/protocol/device';
import type { CommandFrame, ErrorFrame, HelloFrame, ServerFrame, ServerScreenCaptureFrame, WelcomeFrame } from '@spyglass/protocol';
import { backoffDelay, type BackoffOptions } from './backoff';
import { SpyglassError } from './errors';
import { OPEN, type WebSocketConstructor, type WebSocketLike } from './websocket';

const KNOWN_COMMANDS: ReadonlySet<string> = new Set(COMMAND_NAMES);

/**
 * The frame, if this SDK knows its type. The server is trusted to send the protocol's shapes
 * (`ServerFrame`); what is checked is what tells a frame of a newer protocol version apart.
 */
function knownFrame(json: unknown): ServerFrame | undefined {
  const frame = json as Record<string, unknown> | null;
  switch (frame?.type) {
    case 'welcome':
      return typeof frame.deviceId === 'string' && typeof frame.limits === 'object' ? (frame as WelcomeFrame) : undefined;
    case 'ack':
      return typeof frame.seq === 'number' ? (frame as ServerFrame) : undefined;
    case 'error':
      return typeof frame.code === 'string' ? (frame as ErrorFrame) : undefined;
    case 'command':
      return typeof frame.id === 'string' && KNOWN_COMMANDS.has(frame.name as string) ? (frame as CommandFrame) : undefined;
    case 'ping':
    case 'pong':
      return frame as ServerFrame;
    case 'answer':
    case 'candidate':
      return typeof frame.viewerId === 'string' ? (frame as ServerScreenCaptureFrame) : undefined;
    default:
      return undefined;
  }
}

function unknownCommand(json: unknown): { id: string; name: string } | undefined {
  const frame = json as { type?: unknown; id?: unknown; name?: unknown } | null;
  if (frame?.type !== 'command' || typeof frame.id !== 'string') return undefined;
  return { id: frame.id.slice(0, 100), name: String(frame.name).slice(0, 100) };
}

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected' | 'failed' | 'stopped';

export interface ConnectionHandlers {
  /** The server accepted the hello: the session is ready for items. */
  welcome(frame: WelcomeFrame): void;
  ack(seq: number): void;
  error(frame: ErrorFrame): void;
  command(frame: CommandFrame): void;
  /** Screen capture signalling from a viewer (docs/protocol.md "Screen capture"). */
  signal?(frame: ServerScreenCaptureFrame): void;
  /** A command of a newer protocol version: it must be answered with ok:false, never ignored. */
  unknownCommand(id: string, name: string): void;
  status(status: ConnectionStatus): void;
  fatal(error: SpyglassError): void;
}

export interface ConnectionOptions {
  url: string;
  hello: () => Promise<HelloFrame>;
  backoff: BackoffOptions;
  random: () => number;
  /** The WebSocket class: the app's, or the runtime's (loaded when first needed). */
  WebSocket: () => Promise<WebSocketConstructor>;
  /** How long to wait for the welcome after the socket opened. */
  welcomeTimeoutMs: number;
}

/**
 * One logical device session over successive sockets: hello → welcome, heartbeats both ways,
 * reconnect with exponential backoff and jitter until stopped or refused for good.
 */
export class Connection {
  private socket: WebSocketLike | undefined;
  private attempt = 0;
  private ready = false;
  private stopped = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private welcomeTimer: ReturnType<typeof setTimeout> | undefined;
  private lastHeard = 0;

  constructor(private readonly options: ConnectionOptions, private readonly handlers: ConnectionHandlers) {}

  get isReady(): boolean {
    return this.ready && this.socket?.readyState === OPEN;
  }

  start(): void {
    void this.open();
  }

  /** Sends a serialized frame; false when there is no ready session to carry it. */
  send(frame: string): boolean {
    if (!this.isReady) return false;
    this.socket!.send(frame);
    return true;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.drop(true, 'Client stopped');
    this.handlers.status('stopped');
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    this.handlers.status('connecting');
    let socket: WebSocketLike;
    try {
      const Socket = await this.options.WebSocket();
      if (this.stopped) return;
      socket = new Socket(this.options.url);
    } catch (error) {
      this.handlers.error({ type: 'error', code: 'internal', message: `Cannot open a WebSocket: ${String(error)}` });
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.sendHello(socket).catch((error: unknown) => {
        // The device could not describe itself (storage or runtime failure): try again later.
        this.handlers.error({ type: 'error', code: 'internal', message: `Cannot build the hello: ${String(error)}` });
        if (socket === this.socket) this.lost(1011, 'Hello failed');
      });
    };
    socket.onmessage = (event) => this.receive(socket, event.data);
    socket.onerror = () => undefined; // the close event that follows carries what matters
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.lost(event.code, event.reason);
    };
  }

  private async sendHello(socket: WebSocketLike): Promise<void> {
    this.lastHeard = Date.now();
    const hello = await this.options.hello();
    if (socket !== this.socket || socket.readyState !== OPEN) return;
    socket.send(JSON.stringify(hello));
    this.welcomeTimer = setTimeout(() => {
      if (socket === this.socket && !this.ready) this.lost(4408, 'No welcome from the server');
    }, this.options.welcomeTimeoutMs);
  }

  private receive(socket: WebSocketLike, data: unknown): void {
    if (socket !== this.socket) return;
    this.lastHeard = Date.now();
    let frame: ServerFrame;
    try {
      const json: unknown = JSON.parse(typeof data === 'string' ? data : String(data));
      const known = knownFrame(json);
      if (!known) {
        // Newer frame types are ignored; a command this SDK does not know still gets its answer.
        const command = unknownCommand(json);
        if (command) this.handlers.unknownCommand(command.id, command.name);
        return;
      }
      frame = known;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'welcome':
        clearTimeout(this.welcomeTimer);
        this.ready = true;
        this.attempt = 0;
        this.startHeartbeat(frame.heartbeatIntervalMs, frame.heartbeatTimeoutMs);
        this.handlers.status('connected');
        this.handlers.welcome(frame);
        break;
      case 'ack':
        this.handlers.ack(frame.seq);
        break;
      case 'error': {
        const error = new SpyglassError(frame.code, frame.message, frame.seq);
        if (error.fatal) this.fail(error);
        else this.handlers.error(frame);
        break;
      }
      case 'command':
        this.handlers.command(frame);
        break;
      case 'answer':
      case 'candidate':
        this.handlers.signal?.(frame);
        break;
      case 'ping':
        socket.send(JSON.stringify({ type: 'pong', ...(frame.t !== undefined ? { t: frame.t } : {}) }));
        break;
      case 'pong':
        break;
    }
  }

  private startHeartbeat(intervalMs: number, timeoutMs: number): void {
    clearInterval(this.heartbeatTimer);
    const interval = intervalMs > 0 ? intervalMs : DEVICE_LIMITS.heartbeatIntervalMs;
    const timeout = timeoutMs > interval ? timeoutMs : interval * 3;
    this.heartbeatTimer = setInterval(() => {
      // A half-open TCP connection never fires close by itself; silence is the only sign. The
      // server's pings (and its answers to ours) keep a live connection from ever being silent.
      if (Date.now() - this.lastHeard > timeout) {
        this.lost(4408, 'Heartbeat timeout');
        return;
      }
      if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify({ type: 'ping', t: Date.now() }));
    }, interval);
  }

  private lost(code: number, reason: string): void {
    const fatal = SpyglassError.fromCloseCode(code, reason);
    if (fatal) {
      this.fail(fatal);
      return;
    }
    this.drop(false, reason);
    this.scheduleReconnect();
  }

  private fail(error: SpyglassError): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.drop(true, error.message);
    this.handlers.status('failed');
    this.handlers.fatal(error);
  }

  /** Forgets the current socket; its late events are ignored. */
  private drop(graceful: boolean, reason: string): void {
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.welcomeTimer);
    this.ready = false;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = null;
    socket.onerror = () => undefined;
    const terminate = (socket as { terminate?: () => void }).terminate;
    try {
      // `ws` can drop a dead connection at once instead of waiting for a closing handshake.
      if (terminate && !graceful) terminate.call(socket);
      else socket.close(1000, reason.slice(0, 120));
    } catch {
      // closing a socket that never opened throws in some runtimes; it is gone either way
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.handlers.status('disconnected');
    const delay = backoffDelay(this.attempt++, this.options.backoff, this.options.random);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.open(), delay);
  }
}
