import { WebSocket } from 'ws';
import { PROTOCOL_VERSION, ServerFrame, type DeviceInfo, type DeviceItem } from '@spyglass/protocol';

/** A bare device speaking the protocol over a real websocket, as an iOS or Android SDK would. */
export class TestDevice {
  readonly frames: ServerFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ match: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }> = [];
  private seen = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => {});
    ws.on('message', (data) => {
      const frame = ServerFrame.parse(JSON.parse(data.toString()));
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
  }

  static async connect(baseUrl: string): Promise<TestDevice> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?type=device`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TestDevice(ws);
  }

  /** Connects and completes the hello; answers the device with its welcome. */
  static async online(baseUrl: string, apiKey: string, deviceId: string, device: Partial<DeviceInfo> = {}) {
    const client = await TestDevice.connect(baseUrl);
    client.hello(apiKey, deviceId, device);
    const welcome = await client.next();
    if (welcome.type !== 'welcome') throw new Error(`expected welcome, got ${JSON.stringify(welcome)}`);
    return { client, welcome };
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  hello(apiKey: string, deviceId: string, device: Partial<DeviceInfo> = {}, protocolVersion = PROTOCOL_VERSION): void {
    this.send({ type: 'hello', protocolVersion, apiKey, deviceId, device: { platform: 'ios', name: 'Test iPhone', model: 'iPhone 15', ...device } });
  }

  sendItems(seq: number, items: DeviceItem[]): void {
    this.send({ type: 'items', seq, items });
  }

  /** The next frame not yet returned by `next` that matches (by default: any). */
  next<T extends ServerFrame = ServerFrame>(match: (f: ServerFrame) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
    for (let i = this.seen; i < this.frames.length; i++) {
      const frame = this.frames[i]!;
      if (match(frame)) {
        this.frames.splice(i, 1);
        return Promise.resolve(frame as T);
      }
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames).slice(0, 500)}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          this.frames.splice(this.frames.indexOf(f), 1);
          resolve(f as T);
        },
      });
    });
  }

  ack(seq: number): Promise<ServerFrame> {
    return this.next((f) => (f.type === 'ack' || f.type === 'error') && f.seq === seq);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close(1000);
    return this.closed;
  }
}

let counter = 0;
const stamp = () => new Date().toISOString();
export const itemId = (prefix = 'item') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

/** One item of each of the five types, as an SDK would send them. */
export function itemsOfEveryType(): DeviceItem[] {
  return [
    {
      id: itemId('net'), type: 'network', createdAt: stamp(),
      details: {
        request: { method: 'POST', url: 'https://api.example.com/v1/orders?page=2', headers: { 'content-type': 'application/json' }, body: '{"item":42}' },
        response: { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"o-1"}' },
        timings: { total: 123.5 },
      },
    },
    { id: itemId('log'), type: 'log', createdAt: stamp(), details: { message: 'Order placed', level: 'info', stackTrace: [{ methodName: 'place', lineNumber: 12 }] } },
    { id: itemId('evt'), type: 'event', createdAt: stamp(), details: { name: 'checkout_tapped', category: 'ui' } },
    { id: itemId('shot'), type: 'screenshot', createdAt: stamp(), details: { name: 'Checkout', image: Buffer.from('fake png bytes').toString('base64'), mimeType: 'image/png' } },
    { id: itemId('fa'), type: 'firebaseAnalytics', createdAt: stamp(), details: { name: 'purchase', payload: { value: 9.99 }, level: 'info' } },
  ];
}

export function logItem(message = 'hello', id = itemId('log')): DeviceItem {
  return { id, type: 'log', createdAt: stamp(), details: { message, level: 'debug' } };
}
