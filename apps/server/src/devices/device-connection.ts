import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import {
  DEVICE_CLOSE_CODES, DeviceFrame, SAMPLE_DEVICE_ID, type CommandFrame, type DeviceErrorCode, type HelloFrame, type ItemsFrame,
  type ServerFrame,
} from '@spyglass/protocol';
import type { BlobStore } from '../blobs/blob-store';
import type { Db } from '../db/database';
import type { FrameParser, ParsedFrame } from '../ingest/frame-parser';
import type { IngestFailure, IngestQueue } from '../ingest/ingest-queue';
import type { IngestLimits } from '../ingest/ingest-limits';
import { markDeviceOffline, toDevice, type DeviceKey, type DeviceRow } from '../repositories/devices.repository';
import type { DeviceLink, LocalDeviceHandle } from '../live/device-commands';
import type { LiveEvents } from '../live/live-events';
import { describeIssues, readHello, registerDevice, welcomeFrame, type Refusal } from './device-handshake';
import { FrameAdmission, peekSeq, seqOf, type AccountBuckets, type Rejection } from './frame-admission';
import { DeviceReports } from './device-reports';
import { ItemIntake } from './item-intake';
import { removeSampleDevice } from '../services/sample-device.service';
import type { UsageQuotas } from '../services/usage-quota.service';

/** What every device connection of a node shares. */
export interface DeviceConnectionDeps {
  db: Db;
  blobs: BlobStore;
  queue: IngestQueue;
  parser: FrameParser;
  events: LiveEvents;
  commands: {
    attach(userId: string, deviceId: string, link: DeviceLink): LocalDeviceHandle;
    resultReceived(userId: string, deviceId: string, commandId: string, result: { ok: boolean; data?: unknown; error?: string }): void;
  };
  log: FastifyBaseLogger;
  limits: IngestLimits;
  now(): number;
  /** The account-wide buckets, shared by all devices of one account on this node. */
  accountBuckets(userId: string): AccountBuckets;
  /** Registers this connection as the device's current one; answers the one it replaces. */
  register(device: DeviceKey, connection: DeviceConnection): DeviceConnection | undefined;
  unregister(device: DeviceKey, connection: DeviceConnection): void;
  /** Called once a device is welcomed, with a way to send it commands (its mocks go first). */
  onWelcome?(userId: string, deviceId: string, send: (frame: CommandFrame) => boolean): void;
  /** Traffic quotas: items of an account over its limit are refused with quota_exceeded. */
  quotas?: Pick<UsageQuotas, 'load' | 'blockOf'>;
}

type State = 'hello' | 'registering' | 'ready' | 'closed';

type Transport = { cork(): void; uncork(): void; once(event: 'drain', listener: () => void): unknown };

/** Frames that may arrive between hello and welcome (an SDK that pipelines) are kept, up to this many. */
const MAX_EARLY_FRAMES = 64;

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

/**
 * One device's websocket: hello, then items frames, results, device info and heartbeats.
 * Every frame is parsed and validated once, here; what it may cost is decided by its
 * FrameAdmission, the hello by device-handshake. Items frames become rows and go to the shared
 * ingest queue, and their ack is sent when the queue reports the commit. Nothing a device sends
 * can throw out of this class: bad frames are answered with an error frame or a close code.
 */
export class DeviceConnection {
  private state: State = 'hello';
  private userId = '';
  private row: DeviceRow | null = null;
  /** Set at welcome: where this device's items frames go. */
  private intake: ItemIntake | null = null;
  private early: RawData[] = [];
  /** Frames waiting behind a large frame that is being parsed off the event loop. */
  private backlog: Buffer[] = [];
  private readonly admission: FrameAdmission;
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
  /** Whether reading from the device is paused until it reads what it was sent. */
  private readingPaused = false;
  /** Set at welcome: where this device's results, device info, user defaults, route logs and capture signals go. */
  private reports: DeviceReports | null = null;

  /**
   * `transport`: the TCP socket under `ws`, corked while one commit's acks are written; its
   * `drain` resumes reading from a device that had too much unread.
   */
  constructor(private readonly ws: WebSocket, private readonly deps: DeviceConnectionDeps, private readonly transport: Transport | null = null) {
    const now = deps.now();
    this.lastHeard = now;
    this.admission = new FrameAdmission(deps.limits, () => deps.accountBuckets(this.userId), now);
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

  /** The device this connection speaks for, once registered. */
  get device(): DeviceKey | null {
    return this.row ? { userId: this.userId, deviceId: this.row.id } : null;
  }

  send(frame: ServerFrame): boolean {
    return this.write(JSON.stringify(frame));
  }

  private write(data: string): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(data);
    this.holdBackIfUnread();
    return true;
  }

  /**
   * Backpressure: once the device has more than `maxUnreadBytes` of our frames unread, nothing
   * more is read from it (so it cannot make us write more) until the socket drains. A device that
   * never reads again also stops being heard from, and the heartbeat closes it.
   */
  private holdBackIfUnread(): void {
    if (this.readingPaused || !this.transport || this.ws.bufferedAmount <= this.deps.limits.maxUnreadBytes) return;
    this.readingPaused = true;
    this.ws.pause();
    this.transport.once('drain', () => {
      this.readingPaused = false;
      if (!this.closed) this.ws.resume();
    });
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

  /**
   * Refuses a frame. A device refused more often than its budget allows (garbage, bad shapes,
   * oversized frames: not rate limits) is closed instead of being answered again and again.
   */
  private reject({ code, message, ...extra }: Rejection): void {
    if (this.admission.countRefusal(code, this.deps.now())) {
      this.error(code, message, extra);
      return;
    }
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.deps.log.warn({ deviceId: this.row?.id }, 'closing a device that keeps sending refused frames');
    this.close(DEVICE_CLOSE_CODES.misbehaving, 'Too many refused frames');
    // A flooding device rarely answers the close handshake in time: it gets a second, not ws's 30.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  private fail(code: DeviceErrorCode, message: string, closeCode: number): void {
    this.error(code, message);
    this.close(closeCode, message);
  }

  private refuse({ code, message, closeCode }: Refusal): void {
    this.fail(code, message, closeCode);
  }

  private onMessage(raw: RawData): void {
    // Once closing, what a device still sends is dropped unread.
    if (this.state === 'closed' || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.state === 'registering') {
      this.keepEarly(raw);
      return;
    }
    const data = toBuffer(raw);
    const tooLarge = this.admission.checkSize(data);
    if (tooLarge) {
      this.reject(tooLarge);
      return;
    }
    // Frames are handled in arrival order: behind a large frame being parsed, small ones wait too.
    if (this.backlog.length > 0 || data.length >= this.deps.limits.offThreadParseBytes) {
      const refused = this.admission.enterBacklog(data);
      if (refused) {
        this.reject(refused);
        return;
      }
      this.backlog.push(data);
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
      this.admission.leaveBacklog(data.length);
      if (this.closed) continue;
      // A hello parsed off the thread may have started registration: later frames wait for the welcome.
      if (this.state === 'registering') this.keepEarly(data);
      else this.guarded(() => this.handleFrame(data, parsed));
    }
  }

  private handleFrame(data: Buffer, preParsed: ParsedFrame | null): void {
    const now = this.deps.now();
    if (this.state !== 'hello') {
      // Charged before parsing: a flood of frames costs no JSON.parse.
      const overBudget = this.admission.admitBytes(data.length, peekSeq(data), now);
      if (overBudget) {
        this.reject(overBudget);
        return;
      }
    }
    let json: unknown;
    try {
      if (preParsed && !preParsed.ok) throw new Error(preParsed.error);
      json = preParsed ? preParsed.value : JSON.parse(data.toString('utf8'));
    } catch {
      if (this.state === 'hello') this.fail('bad_hello', 'The first frame must be a JSON hello frame', DEVICE_CLOSE_CODES.badHello);
      else this.reject({ code: 'bad_frame', message: 'Frames must be JSON objects' });
      return;
    }
    if (this.state === 'hello') {
      this.onHello(json).catch((err: unknown) => {
        this.deps.log.error({ err }, 'device hello failed');
        this.close(1011, 'Internal error');
      });
      return;
    }
    const parsed = DeviceFrame.safeParse(json);
    if (!parsed.success) {
      const seq = seqOf(json);
      const isItems = (json as { type?: unknown } | null)?.type === 'items';
      this.reject({ code: isItems ? 'bad_items' : 'bad_frame', message: describeIssues(parsed.error), ...(seq === undefined ? {} : { seq }) });
      return;
    }
    // Only a valid frame keeps a device alive: garbage does not hold its connection open.
    this.lastHeard = now;
    const frame = parsed.data;
    switch (frame.type) {
      case 'items':
        this.onItems(frame, data.length, now);
        break;
      case 'ping':
        this.send({ type: 'pong', ...(frame.t !== undefined ? { t: frame.t } : {}) });
        break;
      case 'pong':
        break;
      case 'hello':
        this.reject({ code: 'bad_frame', message: 'This connection already said hello' });
        break;
      default:
        this.reports!.report(frame, now);
    }
  }

  private onItems(frame: ItemsFrame, bytes: number, now: number): void {
    const { seq, items } = frame;
    // Over quota, or once the trial or subscription ended, nothing more is stored; the device
    // keeps its items and asks again later (an upgrade or the next period lifts the block). Not a
    // misbehaviour: no refusal is counted.
    const block = this.deps.quotas?.blockOf(this.userId);
    if (block) {
      this.error(block.code, block.message, { seq, retryAfterMs: block.retryAfterMs });
      return;
    }
    const refused = this.admission.admitItems(seq, items.length, now);
    if (refused) {
      this.reject(refused);
      return;
    }

    const unprepared = this.intake!.take(items, now, (failure) => this.onCommitted(seq, items.length, failure));
    if (unprepared === null) return;
    this.admission.settled(items.length);
    // A value nested too deeply fails the same way every time: the device must drop it, not resend it.
    if (unprepared === 'too_deep') this.reject({ code: 'bad_items', message: 'Item values are nested too deeply to be stored', seq });
    else this.error('internal', 'The items could not be stored: send them again', { seq });
  }

  private onCommitted(seq: number, count: number, failure: IngestFailure | null): void {
    this.admission.settled(count);
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
      this.write(`{"type":"ack","seq":${seq}}`);
    } else if (failure === 'device_deleted') {
      this.error('device_deleted', 'This device was deleted', { seq });
      this.close(DEVICE_CLOSE_CODES.deviceDeleted, 'Device deleted');
    } else {
      this.error('internal', 'The items could not be stored: send them again', { seq });
    }
  }

  private async onHello(json: unknown): Promise<void> {
    const read = readHello(json);
    if ('refused' in read) {
      this.refuse(read.refused);
      return;
    }
    this.state = 'registering';
    clearTimeout(this.helloTimer);
    try {
      await this.register(read.hello);
    } catch (err) {
      this.deps.log.error({ err }, 'device hello failed');
      if (!this.closed) this.fail('internal', 'The server could not register this device', 1011);
    }
  }

  private async register(hello: HelloFrame): Promise<void> {
    const now = this.deps.now();
    const registration = await registerDevice(this.deps.db, hello, now, this.deps.limits.deviceLimit);
    if ('refused' in registration) {
      const { userId } = registration.refused;
      if (registration.refused.code === 'device_limit' && userId) this.deps.events.deviceLimitReached(userId, hello.deviceId);
      if (!this.closed) this.refuse(registration.refused);
      return;
    }
    const { userId, row, created } = registration;
    // The account's first real device takes the sample out of the way (spec 002 'Sample data').
    if (created && row.id !== SAMPLE_DEVICE_ID && await removeSampleDevice(this.deps, userId)) this.deps.events.deviceRemoved?.(userId, SAMPLE_DEVICE_ID);
    if (this.closed) {
      // Closed while registering: the row says online, so say otherwise.
      await this.markOffline(userId, row.id);
      return;
    }
    this.userId = userId;
    this.row = row;
    this.intake = new ItemIntake(this.deps, userId, row.id);
    this.reports = new DeviceReports(this.deps, { userId, deviceId: row.id });
    this.deps.register({ userId, deviceId: row.id }, this)?.replace();
    this.handle = this.deps.commands.attach(userId, row.id, {
      send: (frame: CommandFrame) => this.send(frame),
      close: (code: number, reason: string) => this.close(code, reason),
      protocolVersion: hello.protocolVersion,
    });
    await this.handle.ready;
    // The account's quota is known before its first items frame is judged.
    await this.deps.quotas?.load(userId);
    if (this.closed) return;

    const device = toDevice(row, now);
    this.send(welcomeFrame(hello, device, this.deps.limits, now));
    this.state = 'ready';
    this.lastHeard = this.deps.now();
    this.deps.events.deviceConnected(userId, device, created);
    this.deps.onWelcome?.(userId, device.id, (frame) => this.send(frame));
    for (const raw of this.early.splice(0)) this.onMessage(raw);
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
    this.admission.clearBacklog();
    if (!wasRegistered || !this.row) return;
    this.deps.unregister({ userId: this.userId, deviceId: this.row.id }, this);
    this.handle?.detach();
    try {
      // What the device last reported is kept, even when it had not been written yet.
      await this.reports?.flush();
      if (this.replaced) return;
      await this.markOffline(this.userId, this.row.id);
    } catch (err) {
      this.deps.log.error({ err }, 'marking a device offline failed');
    }
  }
}
