import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer } from 'ws';
import type { BlobStore } from '../blobs/blob-store';
import type { DatabaseHandle } from '../db/database';
import { FrameParser } from '../ingest/frame-parser';
import { IngestQueue, type IngestQueueOptions } from '../ingest/ingest-queue';
import { createItemWriter } from '../repositories/item-writer.repository';
import { WalCheckpoints } from '../ingest/wal-checkpoints';
import type { IngestLimits } from '../ingest/ingest-limits';
import { accountBudgetFactory, type AccountBudgetFactory, type AccountBudgets } from '../ingest/account-budgets';
import { memoryLimiterStore } from '../plugins/rate-limiter-store';
import { touchDevices, type DeviceKey } from '../repositories/devices.repository';
import { DeviceConnection, type DeviceConnectionDeps } from './device-connection';
import type { LiveEvents } from '../live/live-events';
import type { UpgradeHandler } from '../live/ws-upgrades';

export interface DeviceGatewayOptions {
  database: DatabaseHandle;
  blobs: BlobStore;
  events: LiveEvents;
  commands: DeviceConnectionDeps['commands'];
  log: FastifyBaseLogger;
  limits: IngestLimits;
  now(): number;
  onWelcome?: DeviceConnectionDeps['onWelcome'];
  /** Account-wide ingest budgets (shared by the nodes when rate limits live in Redis); default: per node. */
  accountBudgets?: AccountBudgetFactory;
  /** Told the kinds of each account's committed items (see IngestQueueOptions.committed). */
  itemsCommitted?: IngestQueueOptions['committed'];
  /** Traffic quotas: told what each commit metered, asked before items are taken. */
  quotas?: DeviceConnectionDeps['quotas'] & { metered: NonNullable<IngestQueueOptions['metered']> };
}

/** Devices are keyed by (account, install id): one install may be a device of several accounts. */
const deviceKey = ({ userId, deviceId }: DeviceKey) => `${userId}\n${deviceId}`;

/**
 * The device side of `/ws?type=device` on one node: accepts device sockets, keeps the current
 * connection of each device, runs heartbeats and owns the ingest queue they all feed.
 */
export class DeviceGateway {
  private readonly queue: IngestQueue;
  private readonly parser = new FrameParser();
  private readonly wss: WebSocketServer;
  private readonly connections = new Map<string, DeviceConnection>();
  private readonly sockets = new Set<DeviceConnection>();
  private readonly accounts = new Map<string, AccountBudgets & { usedAt: number }>();
  private readonly newAccountBudgets: AccountBudgetFactory;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly deps: DeviceConnectionDeps;
  /** SQLite: the WAL is checkpointed on a worker thread, not inside ingest commits on this one. */
  private readonly checkpoints: WalCheckpoints | null;

  constructor(private readonly options: DeviceGatewayOptions) {
    const { limits } = options;
    this.newAccountBudgets = options.accountBudgets ?? accountBudgetFactory(limits, memoryLimiterStore);
    this.checkpoints = options.database.sqlite ? new WalCheckpoints(options.database.sqlite) : null;
    this.queue = new IngestQueue({
      writer: createItemWriter(options.database), events: options.events, log: options.log, now: options.now, committed: options.itemsCommitted,
      metered: options.quotas ? (usage) => options.quotas!.metered(usage) : undefined,
      // PostgreSQL: commits of different devices overlap, each on its own pooled connection.
      concurrentCommits: options.database.engine === 'postgres' ? 4 : 1,
    });
    // Frames up to twice the limit are read and answered with frame_too_large; beyond that ws
    // closes with 1009, which bounds what one connection can make the server hold.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes * 2, perMessageDeflate: false });
    this.deps = {
      ...options,
      db: options.database.db,
      queue: this.queue,
      parser: this.parser,
      accountBuckets: (userId) => this.accountBuckets(userId),
      register: (device, connection) => {
        const key = deviceKey(device);
        const previous = this.connections.get(key);
        this.connections.set(key, connection);
        return previous === connection ? undefined : previous;
      },
      unregister: (device, connection) => {
        const key = deviceKey(device);
        if (this.connections.get(key) === connection) this.connections.delete(key);
      },
    };
    this.heartbeat = setInterval(() => void this.beat(), limits.heartbeatIntervalMs);
    this.heartbeat.unref();
  }

  readonly handler: UpgradeHandler = (request, socket, head) => {
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = new DeviceConnection(ws, this.deps, socket);
      this.sockets.add(connection);
      ws.on('close', () => this.sockets.delete(connection));
    });
  };

  private accountBuckets(userId: string): AccountBudgets {
    const now = this.options.now();
    let buckets = this.accounts.get(userId);
    if (!buckets) {
      buckets = { ...this.newAccountBudgets(userId, now), usedAt: now };
      this.accounts.set(userId, buckets);
    }
    buckets.usedAt = now;
    return buckets;
  }

  /**
   * Pings every device, closes those silent for longer than the timeout (their close marks them
   * offline) and records when the others were last heard from.
   */
  private async beat(): Promise<void> {
    const now = this.options.now();
    const { heartbeatTimeoutMs, heartbeatIntervalMs } = this.options.limits;
    const heard: DeviceKey[] = [];
    for (const connection of this.connections.values()) {
      const device = connection.device;
      if (!connection.isReady || !device) continue;
      if (now - connection.lastHeard > heartbeatTimeoutMs) {
        connection.close(4408, 'Heartbeat timeout');
        continue;
      }
      if (now - connection.lastHeard <= heartbeatIntervalMs * 2) heard.push(device);
      connection.send({ type: 'ping', t: now });
    }
    // Buckets of accounts idle for a minute are full again anyway; dropping them bounds memory.
    for (const [userId, buckets] of this.accounts) if (now - buckets.usedAt > 60_000) this.accounts.delete(userId);
    try {
      for (let i = 0; i < heard.length; i += 500) await touchDevices(this.options.database.db, heard.slice(i, i + 500), now);
    } catch (err) {
      this.options.log.error({ err }, 'recording device heartbeats failed');
    }
  }

  /**
   * Shutdown: devices are told to reconnect (1001), then everything already received is
   * committed, and acknowledged if the socket is still writable. What is not acknowledged, the
   * devices resend to the next server.
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.queue.drain();
    const connections = [...this.sockets];
    for (const connection of connections) connection.close(1001, 'Server shutting down');
    const finished = Promise.all(connections.map((c) => c.finished));
    // A device that does not answer the close handshake is not waited for long.
    const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 1000).unref());
    if ((await Promise.race([finished, grace])) === 'timeout') for (const connection of connections) connection.terminate();
    await finished;
    this.wss.close();
    await this.queue.drain();
    await this.parser.close();
    await this.checkpoints?.close();
  }
}
