import crypto from 'node:crypto';
import { WebSocket } from 'ws';
import {
  PROTOCOL_VERSION, ServerFrame, ViewerOutbound, type CommandFrame, type DeviceInfo, type DeviceItem,
  type WelcomeFrame,
} from '@spyglass/protocol';
import { signUp } from './helpers';

const wsUrl = (baseUrl: string, query: string) => `${baseUrl.replace(/^http/, 'ws')}/ws?${query}`;

/**
 * Messages a socket received, in order, with a way to wait for the next one matching a
 * predicate. Messages that did not match stay queued for later waits.
 */
class Inbox<T> {
  private readonly queue: T[] = [];
  private readonly waiters: Array<{ match: (m: T) => boolean; resolve: (m: T) => void }> = [];
  /** Everything ever received, for assertions on what did not arrive. */
  readonly all: T[] = [];

  push(message: T): void {
    this.all.push(message);
    const index = this.waiters.findIndex((w) => w.match(message));
    if (index >= 0) {
      const [waiter] = this.waiters.splice(index, 1);
      waiter!.resolve(message);
    } else {
      this.queue.push(message);
    }
  }

  next<U extends T>(match: (m: T) => m is U, what: string, timeoutMs?: number): Promise<U>;
  next(match: (m: T) => boolean, what: string, timeoutMs?: number): Promise<T>;
  next(match: (m: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
    const index = this.queue.findIndex(match);
    if (index >= 0) return Promise.resolve(this.queue.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve: (m: T) => { clearTimeout(timer); resolve(m); } };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`Timed out waiting for ${what}; received: ${JSON.stringify(this.all).slice(0, 2000)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

export type ViewerMessage = ViewerOutbound;
type OfType<T extends { type: string }, K extends T['type']> = Extract<T, { type: K }>;

export interface ViewerClient {
  ws: WebSocket;
  inbox: Inbox<ViewerMessage>;
  connectionId: string;
  next<K extends ViewerMessage['type']>(type: K, where?: (m: OfType<ViewerMessage, K>) => boolean, timeoutMs?: number): Promise<OfType<ViewerMessage, K>>;
  send(message: unknown): void;
  /**
   * Subscribes to a device's items (with `batches`, as one new_requests message per committed
   * batch) and waits until the hub has applied it (a ping answered after it).
   */
  subscribe(deviceId: string | null, options?: { batches?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** A dashboard's live connection, speaking spec 000 §4.6; resolves after `init`. */
export async function connectViewer(baseUrl: string, token: string): Promise<ViewerClient> {
  const ws = new WebSocket(wsUrl(baseUrl, `type=viewer&token=${encodeURIComponent(token)}`));
  const inbox = new Inbox<ViewerMessage>();
  ws.on('message', (data) => inbox.push(ViewerOutbound.parse(JSON.parse(data.toString()))));
  const client: ViewerClient = {
    ws,
    inbox,
    connectionId: '',
    next: (type, where, timeoutMs) =>
      inbox.next((m) => m.type === type && (!where || where(m as never)), `viewer message ${type}`, timeoutMs) as never,
    send: (message) => ws.send(JSON.stringify(message)),
    async subscribe(deviceId, options = {}) {
      client.send({ type: 'subscribe', deviceId, ...options });
      client.send({ type: 'ping' });
      await client.next('pong');
    },
    close: () => closeSocket(ws),
  };
  const init = await client.next('init');
  client.connectionId = init.connectionId;
  return client;
}

/** Resolves with the close code and reason of a socket the server closes. */
export function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close();
  });
}

export interface DeviceClient {
  ws: WebSocket;
  deviceId: string;
  welcome: WelcomeFrame;
  inbox: Inbox<ServerFrame>;
  /** Sends one items frame and resolves when the server acknowledged it. */
  sendItems(items: DeviceItem[]): Promise<void>;
  /** Commands the device received, answered by `answer` (default: ok with `{ name }`). */
  commands: CommandFrame[];
  close(): Promise<void>;
}

export interface DeviceOptions {
  deviceId?: string;
  device?: Partial<DeviceInfo>;
  /** How the device answers a command; return null to stay silent. */
  answer?: (command: CommandFrame) => { ok: boolean; data?: unknown; error?: string } | null;
}

/** A raw device speaking the device protocol (docs/protocol.md), without the SDK. */
export async function connectDevice(baseUrl: string, apiKey: string, options: DeviceOptions = {}): Promise<DeviceClient> {
  const deviceId = options.deviceId ?? `dev-${crypto.randomUUID()}`;
  const ws = new WebSocket(wsUrl(baseUrl, 'type=device'));
  const inbox = new Inbox<ServerFrame>();
  const commands: CommandFrame[] = [];
  const answer = options.answer ?? ((command: CommandFrame) => ({ ok: true, data: { name: command.name } }));
  ws.on('message', (data) => {
    const frame = ServerFrame.parse(JSON.parse(data.toString()));
    if (frame.type === 'command') {
      commands.push(frame);
      const result = answer(frame);
      if (result) ws.send(JSON.stringify({ type: 'result', commandId: frame.id, ...result }));
      return;
    }
    if (frame.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
      return;
    }
    inbox.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({
    type: 'hello',
    protocolVersion: PROTOCOL_VERSION,
    apiKey,
    deviceId,
    device: { platform: 'ios', name: 'Test iPhone', model: 'iPhone 15', sdkVersion: '1.4.600', systemVersion: '17.4', ...options.device },
  }));
  const first = await inbox.next((f) => f.type === 'welcome' || f.type === 'error', 'welcome');
  if (first.type !== 'welcome') throw new Error(`device refused: ${JSON.stringify(first)}`);
  const welcome = first;
  let seq = 0;
  return {
    ws,
    deviceId,
    welcome,
    inbox,
    commands,
    async sendItems(items) {
      const mySeq = seq++;
      ws.send(JSON.stringify({ type: 'items', seq: mySeq, items }));
      const answer = await inbox.next((f) => (f.type === 'ack' && f.seq >= mySeq) || (f.type === 'error' && f.seq === mySeq), `ack of ${mySeq}`);
      if (answer.type === 'error') throw new Error(`items refused: ${answer.message}`);
    },
    close: () => closeSocket(ws),
  };
}

let itemCounter = 0;

/** One item of each kind the tests need, with fresh ids. */
/** A fresh account (signUp) with one device of its own connected. */
export async function signUpWithDevice(baseUrl: string, options: DeviceOptions = {}) {
  const account = await signUp(baseUrl);
  return { ...account, device: await connectDevice(baseUrl, account.profile.apiKey, options) };
}

export const items = {
  network(overrides: { url?: string; status?: number; requestBody?: string; responseBody?: string; createdAt?: string } = {}): DeviceItem {
    return {
      id: `item-${crypto.randomUUID()}`,
      type: 'network',
      createdAt: overrides.createdAt ?? new Date(Date.now() + itemCounter++).toISOString(),
      details: {
        request: { method: 'POST', url: overrides.url ?? 'https://api.example.com/users?page=1', headers: { 'content-type': 'application/json' }, body: overrides.requestBody ?? '{"name":"Ada"}' },
        response: { statusCode: overrides.status ?? 200, headers: { 'content-type': 'application/json' }, body: overrides.responseBody ?? '{"id":1}' },
        timings: { total: 120 },
      },
    };
  },
  log(message = 'Hello from the device', createdAt?: string): DeviceItem {
    return {
      id: `item-${crypto.randomUUID()}`,
      type: 'log',
      createdAt: createdAt ?? new Date(Date.now() + itemCounter++).toISOString(),
      level: 'info',
      details: { message, level: 'info' },
    };
  },
  screenshot(image = Buffer.from('fake-png-bytes').toString('base64')): DeviceItem {
    return {
      id: `item-${crypto.randomUUID()}`,
      type: 'screenshot',
      createdAt: new Date(Date.now() + itemCounter++).toISOString(),
      details: { name: 'Home screen', image, mimeType: 'image/png' },
    };
  },
};
