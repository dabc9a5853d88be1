import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import { VIEWER_CLOSE_CODES, ViewerInbound, type ViewerOutbound } from '@spyglass/protocol';
import type { z } from 'zod';
import { TokenBucket } from '../lib/token-bucket';
import { topics, type BusSubscription, type LiveBus } from './bus';
import { itemMessagesOf } from './viewer-messages';

export interface ViewerHubOptions {
  bus: LiveBus;
  log: FastifyBaseLogger;
  /**
   * Bytes a viewer may have queued (in `ws` and the kernel socket) before the hub stops sending
   * to it; it gets `resync` once it has drained to a quarter of this.
   */
  maxBufferedBytes?: number;
  /** A viewer that stays over the limit this long is disconnected. */
  overflowTimeoutMs?: number;
  /** Viewers one account may have on this node; more are refused with 1013 (try again later). */
  maxViewersPerAccount?: number;
  /**
   * Interval of protocol-level pings; a viewer that missed the previous one is dropped, and one
   * whose credentials no longer hold is closed with 4401.
   */
  heartbeatMs?: number;
  /** Where a viewer's screen capture signalling goes; answers false when its device cannot be reached. */
  signalling?: ViewerSignalling;
}

type ViewerSignal = Extract<ViewerInbound, { type: 'answer' | 'candidate' }>;

export interface ViewerSignalling {
  fromViewer(userId: string, viewerId: string, message: ViewerSignal): Promise<boolean>;
  /** The viewer's connection closed: the devices it answered stop sending it their screen. */
  viewerLeft(userId: string, viewerId: string, deviceIds: string[]): void;
}

/** Devices one viewer may be watching at once (each answer names one); more are not remembered. */
const MAX_CAPTURES_PER_VIEWER = 20;

/** The viewer's TCP socket, corked while a multi-message payload is written to it. */
export interface ViewerTransport {
  cork(): void;
  uncork(): void;
}

export interface ViewerIdentity {
  userId: string;
  /** Whether the credentials the viewer connected with still hold (checked at each heartbeat). */
  stillAuthorized?: () => Promise<boolean>;
  transport?: ViewerTransport | null;
}

interface Viewer {
  readonly ws: WebSocket;
  readonly transport: ViewerTransport | null;
  readonly userId: string;
  /** Sent in `init`; what is addressed to this connection alone (screen capture signalling) is published under it. */
  readonly connectionId: string;
  /** The subscription to this connection's own topic. */
  own: BusSubscription | null;
  /** The device whose items this viewer receives (`subscribe`). */
  deviceId: string | null;
  /** Whether it takes a committed batch as one `new_requests` message (else one `new_request` per item). */
  batches: boolean;
  /** Since when the hub has been dropping this viewer's messages (null: it is keeping up). */
  overflowedAt: number | null;
  alive: boolean;
  stillAuthorized: () => Promise<boolean>;
  /** Settles when the subscriptions this viewer asked for are live on the bus. */
  settled: Promise<void>;
  /** What the viewer may send: pings and subscriptions are rare, a flood is not a dashboard. */
  inbound: TokenBucket;
  /** The devices this viewer answered an offer of: told when it goes away. */
  captures: Set<string>;
}

/** Viewers of this node that share one bus topic, subscribed while the group is not empty. */
interface Group {
  viewers: Set<Viewer>;
  subscription: BusSubscription;
}

const encode = (message: ViewerOutbound) => Buffer.from(JSON.stringify(message));
const PONG = encode({ type: 'pong' });
const TEXT = { binary: false } as const;
const CHECK_OVERFLOW_MS = 100;
const INBOUND_PER_SECOND = 20;
const INBOUND_BURST = 100;
/** Close code of a viewer that sends more than a dashboard ever does (policy violation). */
export const VIEWER_FLOODING = 1008;
/** Close code of a viewer over its account's connection limit ("try again later"). */
export const VIEWER_TOO_MANY = 1013;
const watchKey = (viewer: Viewer) => `${viewer.userId}\n${viewer.deviceId}`;

/**
 * The viewers connected to this node. Each viewer belongs to its account's group and, while it
 * watches a device and keeps up, to that device's group; each group holds one bus subscription.
 * A bus payload is split and turned into Buffers once, then written to every viewer of the
 * group, so a viewer costs one frame write per message. A viewer that reads too slowly leaves
 * its device group (when it was the last one, nobody even serializes that device's items) until
 * it has drained and been told to resync.
 */
export class ViewerHub {
  private readonly accounts = new Map<string, Group>();
  private readonly watches = new Map<string, Group>();
  /** Per account with viewers here: where any node says its credentials changed. */
  private readonly credentialWatches = new Map<string, BusSubscription>();
  private readonly overflowed = new Set<Viewer>();
  private readonly maxBuffered: number;
  private readonly maxViewersPerAccount: number;
  private readonly overflowTimeoutMs: number;
  private overflowTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: ViewerHubOptions) {
    this.maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;
    // Each viewer may hold up to maxBuffered bytes: this bounds what one account can make a node hold.
    this.maxViewersPerAccount = options.maxViewersPerAccount ?? 50;
    this.overflowTimeoutMs = options.overflowTimeoutMs ?? 60_000;
    this.heartbeat = setInterval(() => this.pingAll(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /** Takes an authenticated viewer socket; answers `init` once live messages can reach it. */
  async attach(ws: WebSocket, who: ViewerIdentity): Promise<void> {
    const { userId, stillAuthorized = async () => true, transport = null } = who;
    if ((this.accounts.get(userId)?.viewers.size ?? 0) >= this.maxViewersPerAccount) {
      ws.close(VIEWER_TOO_MANY, 'Too many live connections for this account');
      return;
    }
    const viewer: Viewer = {
      ws, transport, userId, connectionId: crypto.randomUUID(), own: null, deviceId: null, batches: false, overflowedAt: null, alive: true, stillAuthorized, settled: Promise.resolve(),
      inbound: new TokenBucket(INBOUND_PER_SECOND, INBOUND_BURST, Date.now()),
      captures: new Set(),
    };
    const account = this.join(this.accounts, userId, topics.account(userId), viewer);
    if (!this.credentialWatches.has(userId)) {
      this.credentialWatches.set(userId, this.options.bus.subscribe(topics.credentials(userId), () => this.recheck(userId)));
    }
    viewer.own = this.options.bus.subscribe(topics.viewer(userId, viewer.connectionId), (payload) => this.sendOwn(viewer, payload));
    const ready = Promise.all([account.subscription.ready, viewer.own.ready]);
    viewer.settled = ready.then(() => undefined, () => undefined);
    ws.on('message', (data, isBinary) => this.onMessage(viewer, data, isBinary));
    ws.on('pong', () => {
      viewer.alive = true;
    });
    ws.on('close', () => this.detach(viewer));
    ws.on('error', (err) => this.options.log.debug({ message: err.message }, 'viewer socket error'));
    try {
      await ready;
    } catch {
      ws.close(1011, 'Live channel unavailable');
      return;
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(encode({ type: 'init', connectionId: viewer.connectionId }), TEXT);
  }

  /** Number of viewers connected to this node (all accounts). */
  get size(): number {
    let n = 0;
    for (const account of this.accounts.values()) n += account.viewers.size;
    return n;
  }

  /**
   * Tells every node that the account's tokens were revoked (sign-out, password or e-mail change,
   * reset) or the account deleted: its viewers whose token no longer holds are closed at once,
   * instead of at the next heartbeat.
   */
  credentialsChanged(userId: string): void {
    this.options.bus.publish(topics.credentials(userId), '');
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const subscription of this.credentialWatches.values()) subscription.unsubscribe();
    this.credentialWatches.clear();
    if (this.overflowTimer) clearInterval(this.overflowTimer);
    for (const group of [...this.accounts.values(), ...this.watches.values()]) group.subscription.unsubscribe();
    for (const account of this.accounts.values()) {
      for (const viewer of account.viewers) {
        viewer.own?.unsubscribe();
        viewer.ws.close(1001, 'Server shutting down');
        // Shutdown does not wait on a viewer that never completes the closing handshake.
        setTimeout(() => viewer.ws.terminate(), 1000).unref();
      }
    }
    this.accounts.clear();
    this.watches.clear();
    this.overflowed.clear();
  }

  private join(groups: Map<string, Group>, key: string, topic: string, viewer: Viewer): Group {
    let group = groups.get(key);
    if (!group) {
      const created: Group = { viewers: new Set(), subscription: this.options.bus.subscribe(topic, (payload) => this.dispatch(created, payload)) };
      group = created;
      groups.set(key, group);
    }
    group.viewers.add(viewer);
    return group;
  }

  private leave(groups: Map<string, Group>, key: string, viewer: Viewer): void {
    const group = groups.get(key);
    if (!group?.viewers.delete(viewer) || group.viewers.size > 0) return;
    group.subscription.unsubscribe();
    groups.delete(key);
  }

  private startWatching(viewer: Viewer): void {
    if (viewer.deviceId === null) return;
    const group = this.join(this.watches, watchKey(viewer), topics.deviceViewers(viewer.userId, viewer.deviceId), viewer);
    viewer.settled = group.subscription.ready.catch(() => undefined);
  }

  private stopWatching(viewer: Viewer): void {
    if (viewer.deviceId !== null) this.leave(this.watches, watchKey(viewer), viewer);
  }

  private dispatch(group: Group, payload: string): void {
    let whole: Buffer | null = null;
    // Built at most once per payload, and only when a viewer takes items one message each.
    let perItem: Buffer[] | null | undefined;
    for (const viewer of group.viewers) {
      if (viewer.overflowedAt !== null || viewer.ws.readyState !== WebSocket.OPEN) continue;
      if (!viewer.batches) {
        if (perItem === undefined) perItem = itemMessagesOf(payload)?.map((json) => Buffer.from(json)) ?? null;
        if (perItem) {
          // A committed batch leaves in one write instead of one per item.
          const cork = perItem.length > 1 ? viewer.transport : null;
          cork?.cork();
          for (const frame of perItem) if (!this.send(viewer, frame)) break;
          cork?.uncork();
          continue;
        }
      }
      whole ??= Buffer.from(payload);
      this.send(viewer, whole);
    }
  }

  /** A message for this connection alone: dropped, like the rest, while the viewer is not keeping up. */
  private sendOwn(viewer: Viewer, payload: string): void {
    if (viewer.overflowedAt === null && viewer.ws.readyState === WebSocket.OPEN) this.send(viewer, Buffer.from(payload));
  }

  /** Answers false when the viewer is over its limit (and from now on skipped until it resyncs). */
  private send(viewer: Viewer, data: Buffer): boolean {
    if (viewer.ws.bufferedAmount > this.maxBuffered) {
      // Queuing more would grow memory with the slowest reader; drop its backlog instead and
      // let it reload from the API once it has caught up.
      viewer.overflowedAt = Date.now();
      this.stopWatching(viewer);
      this.overflowed.add(viewer);
      this.overflowTimer ??= setInterval(() => this.checkOverflowed(), CHECK_OVERFLOW_MS);
      return false;
    }
    viewer.ws.send(data, TEXT);
    return true;
  }

  private checkOverflowed(): void {
    const now = Date.now();
    for (const viewer of this.overflowed) {
      if (viewer.ws.readyState !== WebSocket.OPEN) {
        this.overflowed.delete(viewer);
      } else if (viewer.ws.bufferedAmount <= this.maxBuffered / 4) {
        this.overflowed.delete(viewer);
        viewer.overflowedAt = null;
        this.startWatching(viewer);
        const resync = encode({ type: 'resync', deviceId: viewer.deviceId, reason: 'Live updates were dropped because the connection was too slow' });
        // Sent once the device's items flow again, so that the reload misses nothing.
        void viewer.settled.then(() => viewer.ws.readyState === WebSocket.OPEN && viewer.ws.send(resync, TEXT));
      } else if (now - (viewer.overflowedAt ?? now) > this.overflowTimeoutMs) {
        this.overflowed.delete(viewer);
        viewer.ws.terminate();
      }
    }
    if (this.overflowed.size === 0 && this.overflowTimer) {
      clearInterval(this.overflowTimer);
      this.overflowTimer = null;
    }
  }

  private onMessage(viewer: Viewer, data: WebSocket.RawData, isBinary: boolean): void {
    const now = Date.now();
    if (!viewer.inbound.has(1, now)) {
      // Each subscribe may cost a bus (Redis) subscription: a flood is refused, not served.
      viewer.ws.close(VIEWER_FLOODING, 'Too many messages');
      return;
    }
    viewer.inbound.take(1, now);
    if (isBinary) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return;
    }
    // Unknown types are ignored, not fatal: newer dashboards may speak messages this server lacks.
    const message = ViewerInbound.safeParse(parsed);
    if (!message.success) {
      this.refuseSignal(viewer, parsed, message.error);
      return;
    }
    switch (message.data.type) {
      case 'ping':
        // After the subscriptions asked for before it are live: a pong means "you get everything now".
        // A viewer that does not read what it is sent gets no more of it, pongs included.
        void viewer.settled.then(() => {
          if (viewer.overflowedAt === null && viewer.ws.readyState === WebSocket.OPEN && viewer.ws.bufferedAmount <= this.maxBuffered) {
            viewer.ws.send(PONG, TEXT);
          }
        });
        break;
      case 'subscribe':
        viewer.batches = message.data.batches === true;
        if (message.data.deviceId === viewer.deviceId) break;
        if (viewer.overflowedAt === null) this.stopWatching(viewer);
        viewer.deviceId = message.data.deviceId;
        if (viewer.overflowedAt === null) this.startWatching(viewer);
        break;
      case 'answer':
      case 'candidate':
        this.signal(viewer, message.data);
        break;
    }
  }

  private signal(viewer: Viewer, message: ViewerSignal): void {
    const signalling = this.options.signalling;
    if (!signalling) return;
    if (message.type === 'answer' && viewer.captures.size < MAX_CAPTURES_PER_VIEWER) viewer.captures.add(message.target);
    signalling.fromViewer(viewer.userId, viewer.connectionId, message).then(
      (delivered) => {
        if (!delivered) this.tell(viewer, { type: 'screen_capture_unavailable', deviceId: message.target, message: 'The device is offline' });
      },
      (err: unknown) => this.options.log.warn({ err }, 'relaying screen capture signalling failed'),
    );
  }

  /**
   * A signalling message the server cannot accept is answered (the dashboard shows why) and goes
   * no further: the device and every other viewer's stream are untouched.
   */
  private refuseSignal(viewer: Viewer, parsed: unknown, error: z.ZodError): void {
    const { type, target } = (parsed ?? {}) as { type?: unknown; target?: unknown };
    if (type !== 'answer' && type !== 'candidate') return;
    const issues = error.issues.map((issue) => `${issue.path.join('.') || type}: ${issue.message}`).join('; ');
    this.tell(viewer, {
      type: 'screen_capture_refused',
      deviceId: typeof target === 'string' ? target.slice(0, 200) : null,
      message: `Invalid ${type} message: ${issues}`.slice(0, 500),
    });
  }

  private tell(viewer: Viewer, message: ViewerOutbound): void {
    if (viewer.overflowedAt === null && viewer.ws.readyState === WebSocket.OPEN) this.send(viewer, encode(message));
  }

  private detach(viewer: Viewer): void {
    viewer.own?.unsubscribe();
    // A closed tab would otherwise be sent the screen until the device's peer connection fails.
    if (viewer.captures.size > 0) this.options.signalling?.viewerLeft(viewer.userId, viewer.connectionId, [...viewer.captures]);
    this.overflowed.delete(viewer);
    if (viewer.overflowedAt === null) this.stopWatching(viewer);
    this.leave(this.accounts, viewer.userId, viewer);
    if (!this.accounts.has(viewer.userId)) {
      this.credentialWatches.get(viewer.userId)?.unsubscribe();
      this.credentialWatches.delete(viewer.userId);
    }
  }

  private recheck(userId: string): void {
    for (const viewer of this.accounts.get(userId)?.viewers ?? []) this.checkAuthorized(viewer);
  }

  private checkAuthorized(viewer: Viewer): void {
    viewer.stillAuthorized().then(
      (ok) => {
        if (!ok) viewer.ws.close(VIEWER_CLOSE_CODES.unauthorized, 'Unauthorized');
      },
      (err: unknown) => this.options.log.warn({ err }, 'checking a viewer token failed'),
    );
  }

  private pingAll(): void {
    for (const account of this.accounts.values()) {
      for (const viewer of account.viewers) {
        if (!viewer.alive) {
          viewer.ws.terminate();
          continue;
        }
        viewer.alive = false;
        if (viewer.ws.readyState !== WebSocket.OPEN) continue;
        viewer.ws.ping();
        // Revocations are announced (credentialsChanged); this also ends tokens that expired.
        this.checkAuthorized(viewer);
      }
    }
  }
}
