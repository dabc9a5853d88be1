import type { FastifyBaseLogger } from 'fastify';
import type { CompactItem } from '@spyglass/protocol';
import type { LiveEvents } from '../live/live-events';
import { insertedCompactItem } from '../repositories/item-columns';
import { mergeRows, type PreparedRow } from './item-rows';
import type { ItemWriter, TrafficUsage, UpsertOutcome } from '../repositories/item-writer.repository';

/** Why a batch was not stored. */
export type IngestFailure = 'device_deleted' | 'internal';

/** One items frame of one device, validated and prepared, waiting for its commit. */
export interface IngestBatch {
  userId: string;
  deviceId: string;
  rows: PreparedRow[];
  /** Called once, after the commit (null) or with the reason the batch was not stored. */
  done(failure: IngestFailure | null): void;
}

/** One device's rows of a commit and what the commit made of them. */
interface CommittedRows {
  rows: PreparedRow[];
  outcome: UpsertOutcome;
}

/** One device's batches of a commit; a device is the pair (account, install id). */
interface DeviceGroup {
  userId: string;
  deviceId: string;
  batches: IngestBatch[];
  /** By item id, so that an item sent twice in one commit is written once. */
  rows: Map<string, PreparedRow>;
}

export interface IngestQueueOptions {
  writer: ItemWriter;
  events: LiveEvents;
  log: FastifyBaseLogger;
  now(): number;
  /** A commit takes whole batches until it holds at least this many items. */
  maxItemsPerCommit?: number;
  /**
   * Commits that may run at once (PostgreSQL: each on its own connection). Commits running
   * together never share a device, so a device's batches still commit in the order they came.
   */
  concurrentCommits?: number;
  /** Told the kinds of one account's committed items (welcome-tour progress); must be cheap and not throw. */
  committed?(userId: string, rows: ReadonlyArray<{ columns: { type: string; is_mocked?: number } }>): void;
  /** Told the traffic each commit metered, per account, after it committed (quotas); must be cheap and not throw. */
  metered?(usage: ReadonlyArray<TrafficUsage>): void;
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const HOUR_MS = 60 * 60 * 1000;

/**
 * Adds one device's committed rows to its account's traffic: a new item counts once with its
 * size; an item stored before (a resend, a completion) counts no request and only the bytes it
 * grew by, so a device sending an item again never pays for it twice.
 */
function meter(usage: TrafficUsage, rows: PreparedRow[], outcome: UpsertOutcome): void {
  rows.forEach(({ columns }, i) => {
    const stored = outcome.storedSizes[i];
    if (stored === null || stored === undefined) {
      usage.items += 1;
      usage.bytes += columns.size;
    } else if (columns.size > stored) {
      usage.bytes += columns.size - stored;
    }
  });
}

/**
 * Group commit for the ingest hot path. Batches from every device are queued; one transaction
 * writes all that arrived since the previous commit started, so the cost of a commit (an fsync on
 * SQLite, a round trip on PostgreSQL) is shared by every frame that waited for it. On PostgreSQL
 * several commits run at once (pipelined: one waits for its round trips while the next is built),
 * each with devices no other running commit has. A batch is acknowledged only after its
 * transaction committed, and batches of one device commit in the order they were queued, which
 * is what lets a device treat `ack` as cumulative.
 */
export class IngestQueue {
  private pending: IngestBatch[] = [];
  /** Commits running, and the devices they hold. */
  private running = 0;
  private readonly busy = new Set<string>();
  private scheduled = false;
  private idle: Array<() => void> = [];
  private readonly maxItemsPerCommit: number;
  private readonly concurrentCommits: number;

  constructor(private readonly options: IngestQueueOptions) {
    this.maxItemsPerCommit = options.maxItemsPerCommit ?? 5000;
    this.concurrentCommits = Math.max(1, options.concurrentCommits ?? 1);
  }

  enqueue(batch: IngestBatch): void {
    this.pending.push(batch);
    this.schedule();
  }

  /** Resolves once everything queued so far is committed (or failed). */
  drain(): Promise<void> {
    if (this.running === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrentCommits) return;
    this.scheduled = true;
    // Waiting for the end of the current I/O phase gathers every frame read in it into one commit.
    setImmediate(() => {
      this.scheduled = false;
      this.startCommits();
    });
  }

  private startCommits(): void {
    while (this.running < this.concurrentCommits) {
      const batches = this.takeNext();
      if (batches.length === 0) break;
      const devices = [...new Set(batches.map((b) => groupKey(b.userId, b.deviceId)))];
      for (const device of devices) this.busy.add(device);
      this.running += 1;
      void this.commit(batches).finally(() => {
        for (const device of devices) this.busy.delete(device);
        this.running -= 1;
        if (this.pending.length > 0) this.schedule();
        else if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  /** The oldest batches of devices no running commit holds, up to the commit's size. */
  private takeNext(): IngestBatch[] {
    let items = 0;
    const taken: IngestBatch[] = [];
    const kept: IngestBatch[] = [];
    for (const batch of this.pending) {
      if (items >= this.maxItemsPerCommit || this.busy.has(groupKey(batch.userId, batch.deviceId))) kept.push(batch);
      else {
        taken.push(batch);
        items += batch.rows.length;
      }
    }
    this.pending = kept;
    return taken;
  }

  private async commit(batches: IngestBatch[]): Promise<void> {
    const groups = groupByDevice(batches);
    try {
      await this.write(groups);
    } catch (err) {
      if (groups.size === 1) {
        this.options.log.error({ err }, 'ingest commit failed');
        for (const batch of batches) batch.done('internal');
        return;
      }
      // One device's bad batch must not cost the others their commit: retry each on its own.
      for (const [key, group] of groups) {
        try {
          await this.write(new Map([[key, group]]));
        } catch (retryErr) {
          this.options.log.error({ err: retryErr, deviceId: group.deviceId }, 'ingest commit failed');
          for (const batch of group.batches) batch.done('internal');
        }
      }
    }
  }

  private async write(groups: Map<string, DeviceGroup>): Promise<void> {
    const now = this.options.now();
    const { committed, vanished, metered } = await this.options.writer.transaction(async (ops) => {
      const devices = await ops.devices([...groups.values()]);
      const known = new Map(devices.map((d) => [groupKey(d.user_id, d.id), d]));
      const committed = new Map<string, CommittedRows>();
      const traffic = new Map<string, TrafficUsage>();
      const vanished = new Set<string>();
      for (const [key, group] of groups) {
        const device = known.get(key);
        if (!device) {
          vanished.add(key);
          continue;
        }
        const rows = [...group.rows.values()];
        const outcome = await ops.upsertForDevice(rows.map((p) => p.columns), device.last_num);
        if (outcome.lastNum !== device.last_num) await ops.setLastNum(group, outcome.lastNum);
        committed.set(key, { rows, outcome });
        const usage = traffic.get(group.userId) ?? { userId: group.userId, day: utcDay(now), hour: now - (now % HOUR_MS), bytes: 0, items: 0 };
        meter(usage, rows, outcome);
        traffic.set(group.userId, usage);
      }
      // In one order in every commit: concurrent commits then never wait for each other in a cycle.
      const metered = [...traffic.values()].filter((u) => u.bytes > 0 || u.items > 0)
        .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
      await ops.addTraffic(metered);
      return { committed, vanished, metered };
    });
    if (metered.length > 0) this.options.metered?.(metered);

    for (const [key, group] of groups) {
      const failed = vanished.has(key);
      for (const batch of group.batches) batch.done(failed ? 'device_deleted' : null);
      const rows = committed.get(key);
      if (rows && this.options.committed) this.options.committed(group.userId, rows.rows);
      // Asked after the commit, so that a viewer who starts watching later loads these items
      // from the API instead; before it, nobody builds or serializes them.
      if (!rows || !this.options.events.wantsItems(group.userId, group.deviceId)) continue;
      try {
        this.options.events.itemsUpserted(group.userId, group.deviceId, await this.compactItems(group, rows));
      } catch (err) {
        this.options.log.error({ err }, 'live event failed');
      }
    }
  }

  /**
   * The committed items in the list form, in commit order: a new item as built (its JSON columns
   * parsed back only if nobody watched when it arrived), an updated one as stored (it keeps its
   * notes, mock state and earlier bodies).
   */
  private async compactItems(device: DeviceGroup, { rows, outcome }: CommittedRows): Promise<CompactItem[]> {
    const again = rows.filter((_, i) => !outcome.isNew[i]).map((row) => row.columns.id);
    const stored = again.length > 0 ? new Map((await this.options.writer.compact(device, again)).map((item) => [item.id, item])) : null;
    const items: CompactItem[] = [];
    rows.forEach(({ columns, parsed }, i) => {
      const item = outcome.isNew[i] ? insertedCompactItem(columns, outcome.nums[i]!, parsed) : stored?.get(columns.id);
      if (item) items.push(item);
    });
    return items;
  }
}

const groupKey = (userId: string, deviceId: string) => `${userId}\n${deviceId}`;

function groupByDevice(batches: IngestBatch[]): Map<string, DeviceGroup> {
  const groups = new Map<string, DeviceGroup>();
  for (const batch of batches) {
    const key = groupKey(batch.userId, batch.deviceId);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { userId: batch.userId, deviceId: batch.deviceId, batches: [], rows: new Map() }));
    group.batches.push(batch);
    for (const row of batch.rows) {
      const earlier = group.rows.get(row.columns.id);
      group.rows.set(row.columns.id, earlier ? mergeRows(earlier, row) : row);
    }
  }
  return groups;
}
