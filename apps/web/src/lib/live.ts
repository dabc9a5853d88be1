import { useEffect, useRef, useSyncExternalStore } from 'react';
import { ViewerOutbound, WEBSOCKET_BACKOFF, type ViewerInbound } from '@spyglass/protocol';
import { readToken } from './storage';

/**
 * The browser's live connection (spec 000 §4.6): one websocket per signed-in tab on
 * `/ws?token=&type=viewer`, reconnected with exponential backoff, and a typed subscription to
 * its messages for every feature (device list, connect screen, inspector).
 */

export type LiveStatus = 'connecting' | 'connected' | 'disconnected';

export interface LiveState {
  status: LiveStatus;
  /** Close code of the last lost connection; null until one was lost (the first attempt). */
  closeCode: number | null;
  /** When the next attempt starts (epoch ms) while one is scheduled. */
  retryAt: number | null;
  /** Attempts since the last successful connection; reset on connect. */
  attempt: number;
}

/** Spec 000 §4.6: 5 s · 2^attempt, capped at 300 s, plus up to 1.5 s of jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  return Math.min(WEBSOCKET_BACKOFF.baseMs * 2 ** attempt, WEBSOCKET_BACKOFF.capMs) + random() * WEBSOCKET_BACKOFF.jitterMs;
}

/**
 * Spec 000 §8: 'WebSocket connection lost (code). Reconnecting in Ns...', or null when the banner
 * is hidden: on the first connect attempt, once connected, and when no reconnect is coming.
 */
export function connectionLostText(state: LiveState, now: number): string | null {
  if (state.status === 'connected' || state.closeCode === null) return null;
  if (state.status === 'disconnected' && state.retryAt === null) return null;
  const seconds = state.retryAt === null ? 0 : Math.max(0, Math.ceil((state.retryAt - now) / 1000));
  return `WebSocket connection lost (${state.closeCode}). Reconnecting in ${seconds}s...`;
}

export function viewerUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?${new URLSearchParams({ token, type: 'viewer' }).toString()}`;
}

/** The part of the browser's WebSocket the connection uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  /** The stored token; reconnecting needs one (spec 000 §4.6). */
  readToken: () => string | null;
  createSocket: (token: string) => SocketLike;
  random?: () => number;
  now?: () => number;
  /** Interval of `{type:"ping"}`; a ping still unanswered at the next one counts as a lost connection. */
  pingIntervalMs?: number;
}

type Listener = (message: ViewerOutbound) => void;
type MessageOf<T extends ViewerOutbound['type']> = Extract<ViewerOutbound, { type: T }>;

/** Reason of the `resync` message the connection itself gives watchers after a reconnect. */
export const LOCAL_RESYNC_REASON = 'Reconnected';

const OPEN = 1;
/** Close code used locally for a connection that stopped answering pings (as the browser reports a dropped one). */
const ABNORMAL_CLOSURE = 1006;
const GOING_AWAY = 1001;

export class LiveConnection {
  private socket: SocketLike | null = null;
  private state: LiveState = { status: 'disconnected', closeCode: null, retryAt: null, attempt: 0 };
  private readonly stateListeners = new Set<() => void>();
  private readonly listeners = new Set<Listener>();
  private readonly watchers: Array<{ deviceId: string }> = [];
  private sentDeviceId: string | null = null;
  /** The server's id of the open connection (its `init`); a reconnect brings a new one. */
  private currentConnectionId: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pendingPongs: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private heartbeatUnanswered = false;
  private connections = 0;
  private running = false;

  constructor(private readonly options: LiveConnectionOptions) {}

  /** Connects when a token is stored; a no-op while already running. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  /** Closes the connection and cancels any reconnect (sign-out, the shell unmounting). */
  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.dropSocket()?.close(1000, 'Closed by the page');
    this.connections = 0;
    this.setState({ status: 'disconnected', closeCode: null, retryAt: null, attempt: 0 });
  }

  getState = (): LiveState => this.state;

  onState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Every message from the server, parsed with the protocol's schema. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Messages of one type, typed by it. */
  on<T extends ViewerOutbound['type']>(type: T, listener: (message: MessageOf<T>) => void): () => void {
    return this.subscribe((message) => {
      if (message.type === type) listener(message as MessageOf<T>);
    });
  }

  /**
   * Asks for `new_requests` messages of one device (the server sends one device's items per
   * viewer). The latest watcher wins; ending it hands the subscription back to the one before.
   * After a reconnect the subscription is renewed and watchers get a `resync` message, since
   * items sent while the connection was down are lost.
   */
  watchDevice(deviceId: string): () => void {
    const watcher = { deviceId };
    this.watchers.push(watcher);
    this.sendSubscription();
    return () => {
      const index = this.watchers.indexOf(watcher);
      if (index >= 0) this.watchers.splice(index, 1);
      this.sendSubscription();
    };
  }

  /**
   * Resolves at the server's answer to a ping sent now. The server answers only once the
   * subscriptions asked for before are live, so a feature can load history after it without a gap.
   */
  ping(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.send({ type: 'ping' })) {
        reject(new Error('The live connection is not open'));
        return;
      }
      this.pendingPongs.push({ resolve, reject });
    });
  }

  /** Null until the server said `init` on the open connection; screen capture signalling is addressed to it. */
  get connectionId(): string | null {
    return this.currentConnectionId;
  }

  /** Sends screen capture signalling to its broadcaster; false while the connection is not open. */
  signal(message: Extract<ViewerInbound, { type: 'answer' | 'candidate' }>): boolean {
    return this.send(message);
  }

  get watchedDeviceId(): string | null {
    return this.watchers.at(-1)?.deviceId ?? null;
  }

  private connect(): void {
    this.retryTimer = undefined;
    const token = this.options.readToken();
    if (!this.running || token === null) {
      this.setState({ ...this.state, status: 'disconnected', retryAt: null });
      return;
    }
    this.setState({ ...this.state, status: 'connecting', retryAt: null });
    const socket = this.options.createSocket(token);
    this.socket = socket;
    this.sentDeviceId = null;
    socket.onopen = () => {
      this.connections++;
      this.setState({ status: 'connected', closeCode: null, retryAt: null, attempt: 0 });
      this.sendSubscription();
      this.startHeartbeat();
      // Items sent while the previous connection was down never arrive, and a list opened before
      // the first connection read its history unsubscribed: whoever shows them reloads.
      if (this.connections > 1 || this.watchers.length > 0) this.emit({ type: 'resync', deviceId: this.watchedDeviceId, reason: LOCAL_RESYNC_REASON });
    };
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onclose = (event) => this.onClose(socket, event.code);
    socket.onerror = () => {};
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      console.warn('Live channel: a message that is not JSON was ignored');
      return;
    }
    const parsed = ViewerOutbound.safeParse(json);
    // A newer server may send message types this client does not know: not an error.
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'init') this.currentConnectionId = message.connectionId;
    if (message.type === 'pong') {
      this.heartbeatUnanswered = false;
      this.pendingPongs.shift()?.resolve();
    }
    this.emit(message);
  }

  private emit(message: ViewerOutbound): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error(`Live channel: a listener of ${message.type} failed`, error);
      }
    }
  }

  private onClose(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.dropSocket();
    if (code !== GOING_AWAY) console.warn(`Live channel closed (${code})`);
    if (!this.running) return;
    if (this.options.readToken() === null) {
      this.setState({ status: 'disconnected', closeCode: code, retryAt: null, attempt: this.state.attempt });
      return;
    }
    const delay = reconnectDelay(this.state.attempt, this.options.random);
    const now = this.options.now?.() ?? Date.now();
    this.setState({ status: 'disconnected', closeCode: code, retryAt: now + delay, attempt: this.state.attempt + 1 });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Detaches the current socket so that nothing it reports any more is acted on. */
  private dropSocket(): SocketLike | null {
    const socket = this.socket;
    this.socket = null;
    this.currentConnectionId = null;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    const pending = this.pendingPongs;
    this.pendingPongs = [];
    for (const waiter of pending) waiter.reject(new Error('The live connection was lost'));
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
    }
    return socket;
  }

  private startHeartbeat(): void {
    const interval = this.options.pingIntervalMs ?? 25_000;
    this.heartbeatUnanswered = false;
    this.pingTimer = setInterval(() => {
      const socket = this.socket;
      if (!socket) return;
      if (this.heartbeatUnanswered) {
        // A half-open connection may not report its end for minutes: end it here and reconnect.
        this.onClose(socket, ABNORMAL_CLOSURE);
        socket.close();
        return;
      }
      this.heartbeatUnanswered = true;
      this.send({ type: 'ping' });
    }, interval);
  }

  private sendSubscription(): void {
    const deviceId = this.watchedDeviceId;
    if (deviceId === this.sentDeviceId) return;
    // Batches: one message per committed batch of items, parsed once, instead of one per item.
    if (this.send({ type: 'subscribe', deviceId, batches: true })) this.sentDeviceId = deviceId;
  }

  private send(message: ViewerInbound): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.state.status !== 'connected') return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  private setState(state: LiveState): void {
    this.state = state;
    for (const listener of [...this.stateListeners]) listener();
  }
}

/** The tab's one live connection. */
export const liveConnection = new LiveConnection({
  readToken,
  createSocket: (token) => new WebSocket(viewerUrl(window.location, token)) as unknown as SocketLike,
});

/** Keeps the tab's connection open while the signed-in shell is shown (and `token` is the same). */
export function useLiveConnectionLifecycle(token: string | null): void {
  useEffect(() => {
    if (token === null) return;
    liveConnection.start();
    return () => liveConnection.stop();
  }, [token]);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(liveConnection.onState, liveConnection.getState);
}

/** Calls `listener` for each live message of `type` while the component is mounted. */
export function useLiveMessage<T extends ViewerOutbound['type']>(type: T, listener: (message: MessageOf<T>) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => liveConnection.on(type, (message) => latest.current(message)), [type]);
}
