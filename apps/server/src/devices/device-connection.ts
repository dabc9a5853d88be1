import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import { z } from 'zod';
import {
  DEVICE_CLOSE_CODES, DEVICE_LIMIT_MESSAGE, DeviceFrame, HelloFrame, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION,
  isSupportedProtocolVersion, type CommandFrame, type DeviceErrorCode, type DeviceInfo, type ItemsFrame,
  type ServerFrame,
} from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import { isTrue, type Db } from '../db/database';
import type { FrameParser, ParsedFrame } from '../ingest/frame-parser';
import type { IngestFailure, IngestQueue } from '../ingest/ingest-queue';
import type { IngestLimits } from '../ingest/ingest-limits';
import { prepareRows } from '../ingest/item-rows';
import { TokenBucket } from '../lib/token-bucket';
import { ACCOUNT_LOCKED_MESSAGE } from '../plugins/authenticate';
import {
  markDeviceOffline, registerDeviceOnHello, toDevice, updateDeviceInfo, type DeviceRow,
} from '../repositories/devices.repository';
import { findUserByApiKey } from '../repositories/users.repository';
import type { DeviceLink, LocalDeviceHandle } from '../live/device-commands';
import type { LiveEvents } from '../live/live-events';

/** What every device connection of a node shares. */
export interface DeviceConnectionDeps {
  db: Db;
  blobs: BlobStore;
  queue: IngestQueue;
  parser: FrameParser;
  events: LiveEvents;
  commands: {
    attach(userId: string, deviceId: string, link: DeviceLink): LocalDeviceHandle;
    resultReceived(deviceId: string, commandId: string, result: { ok: boolean; data?: unknown; error?: string }): void;
  };
  log: FastifyBaseLogger;
  limits: IngestLimits;
  now(): number;
  /** The account-wide buckets, shared by all devices of one account on this node. */
  accountBuckets(userId: string): { items: TokenBucket; bytes: TokenBucket };
  /** Registers this connection as the device's current one; answers the one it replaces. */
  register(deviceId: string, connection: DeviceConnection): DeviceConnection | undefined;
  unregister(deviceId: string, connection: DeviceConnection): void;
  /** Called once a device is welcomed, with a way to send it commands (its mocks go first). */
  onWelcome?(userId: string, deviceId: string, send: (frame: CommandFrame) => boolean): void;
}

type State = 'hello' | 'registering' | 'ready' | 'closed';

/** Frames that may arrive between hello and welcome (an SDK that pipelines) are kept, up to this many. */
const MAX_EARLY_FRAMES = 64;
const MAX_ERROR_MESSAGE = 2000;

const SeqPeek = z.object({ seq: z.number().int().nonnegative() });

/** The seq of a frame too large to parse, when the SDK put it near the start (docs/protocol.md). */
function peekSeq(data: Buffer): number | undefined {
  const match = /"seq"\s*:\s*(\d{1,15})/.exec(data.subarray(0, 256).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** A close reason may hold at most 123 bytes of UTF-8. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

function describeIssues(error: z.ZodError): string {
  const text = z.prettifyError(error);
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 3)}...` : text;
}

/**
 * One device's websocket: hello, then items frames, results, device info and heartbeats.
 * Every frame is parsed and validated once, here; items frames become rows and go to the shared
 * ingest queue, and their ack is sent when the queue reports the commit. Nothing a device sends
 * can throw out of this class: bad frames are answered with an error frame or a close code.
 */
export class DeviceConnection {
  private state: State = 'hello';
  private userId = '';
  private row: DeviceRow | null = null;
  private lastSeq = -1;
  private inFlightItems = 0;
  /** The previous frame's blob writes; frames are queued in the order they arrived. */
  private tail: Promise<void> | null = null;
  private early: RawData[] = [];
  /** Frames waiting behind a large frame that is being parsed off the event loop. */
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  private itemsBucket: TokenBucket;
  private bytesBucket: TokenBucket;
  private handle: LocalDeviceHandle | null = null;
  private helloTimer: NodeJS.Timeout;
  /** Set when a newer connection of the same device took over: this one must not mark it offline. */
  private replaced = false;
  lastHeard: number;
  /** Settles once the connection is closed and the device marked offline. */
  readonly finished: Promise<void>;
  private finish!: () => void;

  /** Whether the socket is corked until the acks of the current commit are all written. */
  private corked = false;

  /** `transport`: the TCP socket under `ws`, corked while one commit's acks are written. */
  constructor(private readonly ws: WebSocket, private readonly deps: DeviceConnectionDeps, private readonly transport: { cork(): void; uncork(): void } | null = null) {
    const now = deps.now();
    this.lastHeard = now;
    this.itemsBucket = new TokenBucket(deps.limits.deviceItemsPerSecond, deps.limits.deviceItemsBurst, now);
    this.bytesBucket = new TokenBucket(deps.limits.deviceBytesPerSecond, deps.limits.deviceBytesBurst, now);
    this.helloTimer = setTimeout(() => this.fail('bad_hello', 'No hello received in time', DEVICE_CLOSE_CODES.badHello), deps.limits.helloTimeoutMs);
    ws.on('message', (data) => this.onMessage(data));
    this.finished = new Promise((resolve) => (this.finish = resolve));
    ws.on('close', () => void this.onClose().finally(() => this.finish()));
    ws.on('error', (err) => deps.log.debug({ message: err.message }, 'device socket error'));
  }

  /** A getter, so that checks after an await are not narrowed away by the compiler. */
  private get closed(): boolean {
    return this.state === 'closed';
  }

  get isReady(): boolean {
    return this.state === 'ready';
  }

  send(frame: ServerFrame): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, closeReason(reason));
  }

  /** Drops the socket without the closing handshake (a peer that does not answer it). */
  terminate(): void {
    this.ws.terminate();
  }

  /** A newer connection of the same device said hello. */
  replace(): void {
    this.replaced = true;
    this.close(DEVICE_CLOSE_CODES.replaced, 'Replaced by a newer connection of this device');
  }

  private error(code: DeviceErrorCode, message: string, extra: { seq?: number; retryAfterMs?: number } = {}): void {
    this.send({ type: 'error', code, message, ...extra });
  }

  private fail(code: DeviceErrorCode, message: string, closeCode: number): void {
    this.error(code, message);
    this.close(closeCode, message);
  }

  private onMessage(raw: RawData): void {
    if (this.state === 'closed') return;
    this.lastHeard = this.deps.now();
    if (this.state === 'registering') {
      this.keepEarly(raw);
      return;
    }
    const data = toBuffer(raw);
    const { maxFrameBytes, offThreadParseBytes } = this.deps.limits;
    if (data.length > maxFrameBytes) {
      const seq = peekSeq(data);
      this.error('frame_too_large', `Frames may hold at most ${maxFrameBytes} bytes`, seq === undefined ? {} : { seq });
      return;
    }
    // Frames are handled in arrival order: behind a large frame being parsed, small ones wait too.
    if (this.backlog.length > 0 || data.length >= offThreadParseBytes) {
      if (this.backlogBytes + data.length > 4 * maxFrameBytes) {
        const seq = peekSeq(data);
        this.error('rate_limited', 'Too many large frames at once: wait for acks before sending more', { retryAfterMs: 500, ...(seq === undefined ? {} : { seq }) });
        return;
      }
      this.backlog.push(data);
      this.backlogBytes += data.length;
      if (this.backlog.length === 1) void this.drainBacklog();
      return;
    }
    this.guarded(() => this.handleFrame(data, null));
  }

  private keepEarly(raw: RawData): void {
    if (this.early.length >= MAX_EARLY_FRAMES) this.fail('bad_frame', 'Too many frames before welcome', DEVICE_CLOSE_CODES.badHello);
    else this.early.push(raw);
  }

  private guarded(handle: () => void): void {
    try {
      handle();
    } catch (err) {
      this.deps.log.error({ err }, 'device frame handling failed');
      this.error('internal', 'The server could not handle this frame');
    }
  }

  private async drainBacklog(): Promise<void> {
    while (this.backlog.length > 0) {
      const data = this.backlog[0]!;
      const parsed = data.length >= this.deps.limits.offThreadParseBytes ? await this.deps.parser.parse(data) : null;
      this.backlog.shift();
      this.backlogBytes -= data.length;
      if (this.closed) continue;
      // A hello parsed off the thread may have started registration: later frames wait for the welcome.
      if (this.state === 'registering') this.keepEarly(data);
      else this.guarded(() => this.handleFrame(data, parsed));
    }
  }

  private handleFrame(data: Buffer, preParsed: ParsedFrame | null): void {
    const now = this.deps.now();
    let json: unknown;
    try {
      if (preParsed && !preParsed.ok) throw new Error(preParsed.error);
      json = preParsed ? preParsed.value : JSON.parse(data.toString('utf8'));
    } catch {
      if (this.state === 'hello') this.fail('bad_hello', 'The first frame must be a JSON hello frame', DEVICE_CLOSE_CODES.badHello);
      else this.error('bad_frame', 'Frames must be JSON objects');
      return;
    }
    if (this.state === 'hello') {
      this.onHello(json).catch((err: unknown) => {
        this.deps.log.error({ err }, 'device hello failed');
        this.close(1011, 'Internal error');
      });
      return;
    }
    if (!this.admitBytes(data.length, json, now)) return;
    const parsed = DeviceFrame.safeParse(json);
    if (!parsed.success) {
      const seq = SeqPeek.safeParse(json);
      const isItems = (json as { type?: unknown } | null)?.type === 'items';
      this.error(isItems ? 'bad_items' : 'bad_frame', describeIssues(parsed.error), seq.success ? { seq: seq.data.seq } : {});
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case 'items':
        this.onItems(frame, data.length, now);
        break;
      case 'result':
        this.deps.commands.resultReceived(this.row!.id, frame.commandId, { ok: frame.ok, data: frame.data, error: frame.error });
        break;
      case 'device_info':
        void this.onDeviceInfo(frame.device);
        break;
      case 'ping':
        this.send({ type: 'pong', ...(frame.t !== undefined ? { t: frame.t } : {}) });
        break;
      case 'pong':
        break;
      case 'hello':
        this.error('bad_frame', 'This connection already said hello');
        break;
    }
  }

  /** Byte rates are checked before validation, so that a flood costs no parsing of its items. */
  private admitBytes(bytes: number, json: unknown, now: number): boolean {
    const account = this.deps.accountBuckets(this.userId).bytes;
    if (this.bytesBucket.has(bytes, now) && account.has(bytes, now)) {
      this.bytesBucket.take(bytes, now);
      account.take(bytes, now);
      return true;
    }
    const seq = SeqPeek.safeParse(json);
    const retryAfterMs = Math.max(this.bytesBucket.waitMs(bytes, now), account.waitMs(bytes, now));
    this.error('rate_limited', 'Too much data: slow down and send this frame again later', {
      retryAfterMs, ...(seq.success ? { seq: seq.data.seq } : {}),
    });
    return false;
  }

  private onItems(frame: ItemsFrame, bytes: number, now: number): void {
    const { seq, items } = frame;
    if (seq <= this.lastSeq) {
      this.error('bad_sequence', `seq must increase within a connection: got ${seq} after ${this.lastSeq}`, { seq });
      return;
    }
    if (items.length > this.deps.limits.maxItemsPerFrame) {
      this.error('bad_items', `A frame may hold at most ${this.deps.limits.maxItemsPerFrame} items`, { seq });
      return;
    }
    const account = this.deps.accountBuckets(this.userId).items;
    if (!this.itemsBucket.has(items.length, now) || !account.has(items.length, now)) {
      const retryAfterMs = Math.max(this.itemsBucket.waitMs(items.length, now), account.waitMs(items.length, now));
      this.error('rate_limited', 'Too many items: slow down and send this frame again later', { seq, retryAfterMs });
      return;
    }
    if (this.inFlightItems + items.length > this.deps.limits.maxInFlightItems) {
      this.error('rate_limited', 'Too many items waiting to be stored: wait for acks before sending more', { seq, retryAfterMs: 500 });
      return;
    }
    this.itemsBucket.take(items.length, now);
    account.take(items.length, now);
    this.lastSeq = seq;

    const row = this.row!;
    let prepared: ReturnType<typeof prepareRows>;
    try {
      prepared = prepareRows(items, {
        userId: this.userId, deviceId: row.id, blobs: this.deps.blobs, receivedAt: now,
        keepParsed: this.deps.events.wantsItems(this.userId, row.id),
      });
    } catch (err) {
      this.deps.log.error({ err }, 'preparing device items failed');
      this.error('internal', 'The items could not be stored: send them again', { seq });
      return;
    }
    this.inFlightItems += items.length;
    const enqueue = () => this.deps.queue.enqueue({
      userId: this.userId,
      deviceId: row.id,
      rows: prepared.rows,
      frameBytes: bytes,
      done: (failure) => this.onCommitted(seq, items.length, failure),
    });
    if (!prepared.blobsWritten && !this.tail) {
      enqueue();
      return;
    }
    const tail: Promise<void> = Promise.all([this.tail, prepared.blobsWritten]).then(enqueue, (err: unknown) => {
      this.deps.log.error({ err }, 'blob write failed');
      this.onCommitted(seq, items.length, 'internal');
    });
    this.tail = tail;
    void tail.finally(() => {
      if (this.tail === tail) this.tail = null;
    });
  }

  private onCommitted(seq: number, count: number, failure: IngestFailure | null): void {
    this.inFlightItems -= count;
    if (failure === null) {
      if (this.ws.readyState !== WebSocket.OPEN) return;
      // One commit usually acks several frames of a device: they leave in one write, not one each.
      if (this.transport && !this.corked) {
        this.corked = true;
        this.transport.cork();
        process.nextTick(() => {
          this.corked = false;
          this.transport!.uncork();
        });
      }
      this.ws.send(`{"type":"ack","seq":${seq}}`);
    } else if (failure === 'device_deleted') {
      this.error('device_deleted', 'This device was deleted', { seq });
      this.close(DEVICE_CLOSE_CODES.deviceDeleted, 'Device deleted');
    } else {
      this.error('internal', 'The items could not be stored: send them again', { seq });
    }
  }

  private async onHello(json: unknown): Promise<void> {
    const version = (json as { protocolVersion?: unknown } | null)?.protocolVersion;
    if ((json as { type?: unknown } | null)?.type !== 'hello') {
      this.fail('bad_hello', 'The first frame must be a hello frame', DEVICE_CLOSE_CODES.badHello);
      return;
    }
    // Checked before the shape: a newer protocol may have a hello this version cannot parse.
    if (typeof version === 'number' && !isSupportedProtocolVersion(version)) {
      this.fail('unsupported_protocol_version',
        `Protocol version ${String(version)} is not supported: this server accepts versions ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}`,
        DEVICE_CLOSE_CODES.unsupportedVersion);
      return;
    }
    const parsed = HelloFrame.safeParse(json);
    if (!parsed.success) {
      this.fail('bad_hello', describeIssues(parsed.error), DEVICE_CLOSE_CODES.badHello);
      return;
    }
    this.state = 'registering';
    clearTimeout(this.helloTimer);
    try {
      await this.register(parsed.data);
    } catch (err) {
      this.deps.log.error({ err }, 'device hello failed');
      if (!this.closed) this.fail('internal', 'The server could not register this device', 1011);
    }
  }

  private async register(hello: HelloFrame): Promise<void> {
    const { db, limits } = this.deps;
    const user = await findUserByApiKey(db, hello.apiKey);
    if (this.closed) return;
    if (!user) {
      this.fail('bad_api_key', 'Invalid API key', DEVICE_CLOSE_CODES.badApiKey);
      return;
    }
    if (isTrue(user.is_locked)) {
      this.fail('forbidden', ACCOUNT_LOCKED_MESSAGE, DEVICE_CLOSE_CODES.forbidden);
      return;
    }
    const now = this.deps.now();
    const outcome = await registerDeviceOnHello(db, user.id, hello.deviceId, hello.device, now, limits.deviceLimit);
    if (!outcome.ok) {
      if (outcome.reason === 'device_limit') this.fail('device_limit', DEVICE_LIMIT_MESSAGE, DEVICE_CLOSE_CODES.deviceLimit);
      else this.fail('forbidden', 'This device id belongs to another account', DEVICE_CLOSE_CODES.forbidden);
      return;
    }
    if (this.closed) {
      // Closed while registering: the row says online, so say otherwise.
      await this.markOffline(user.id, hello.deviceId);
      return;
    }
    this.userId = user.id;
    this.row = outcome.row;
    this.deps.register(outcome.row.id, this)?.replace();
    this.handle = this.deps.commands.attach(user.id, outcome.row.id, {
      send: (frame: CommandFrame) => this.send(frame),
      close: (code: number, reason: string) => this.close(code, reason),
    });
    await this.handle.ready;
    if (this.closed) return;

    const device = toDevice(outcome.row, now);
    this.send({
      type: 'welcome',
      protocolVersion: hello.protocolVersion,
      deviceId: device.id,
      featureToggles: device.featureToggles,
      breakpointEnabled: device.breakpointEnabled,
      serverTime: new Date(now).toISOString(),
      heartbeatIntervalMs: limits.heartbeatIntervalMs,
      heartbeatTimeoutMs: limits.heartbeatTimeoutMs,
      limits: { maxFrameBytes: limits.maxFrameBytes, maxItemsPerFrame: limits.maxItemsPerFrame, itemsPerSecond: limits.deviceItemsPerSecond },
    });
    this.state = 'ready';
    this.deps.events.deviceConnected(user.id, device, outcome.created);
    this.deps.onWelcome?.(user.id, device.id, (frame) => this.send(frame));
    for (const raw of this.early.splice(0)) this.onMessage(raw);
  }

  private async onDeviceInfo(info: DeviceInfo): Promise<void> {
    try {
      const row = await updateDeviceInfo(this.deps.db, this.userId, this.row!.id, info, this.deps.now());
      if (row) this.deps.events.deviceUpdated(this.userId, toDevice(row, this.deps.now()));
    } catch (err) {
      this.deps.log.error({ err }, 'device info update failed');
    }
  }

  private async markOffline(userId: string, deviceId: string): Promise<void> {
    const row = await markDeviceOffline(this.deps.db, userId, deviceId, this.deps.now());
    if (row) this.deps.events.deviceDisconnected(userId, toDevice(row, this.deps.now()));
  }

  private async onClose(): Promise<void> {
    const wasRegistered = this.state === 'ready' || (this.state === 'registering' && this.row !== null);
    this.state = 'closed';
    clearTimeout(this.helloTimer);
    this.early = [];
    this.backlogBytes = 0;
    if (!wasRegistered || !this.row) return;
    this.deps.unregister(this.row.id, this);
    this.handle?.detach();
    if (this.replaced) return;
    try {
      await this.markOffline(this.userId, this.row.id);
    } catch (err) {
      this.deps.log.error({ err }, 'marking a device offline failed');
    }
  }
}
