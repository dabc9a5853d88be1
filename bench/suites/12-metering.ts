/**
 * Issue 19, performance: what traffic metering costs batched ingest. The server's ingest queue and
 * item writer on one SQLite database, committing the same kind of batches twice in one run: with
 * metering (each commit upserts the accounts' daily and hourly counters in its transaction) and
 * with a writer whose counter upserts do nothing. Alternating rounds, median items per CPU second of each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { DeviceItem } from '@spyglass/protocol';
import { FileBlobStore } from '../../apps/server/src/blobs/file-blob-store';
import { migrateToLatest, openDatabase } from '../../apps/server/src/db/database';
import { IngestQueue } from '../../apps/server/src/ingest/ingest-queue';
import { prepareRows } from '../../apps/server/src/ingest/item-rows';
import type { LiveEvents } from '../../apps/server/src/live/live-events';
import { createItemWriter, type ItemWriter } from '../../apps/server/src/repositories/item-writer.repository';
import { median, result, type BenchResult } from '../lib';

const ACCOUNTS = 20;
const BATCH = 100;
const BATCHES_PER_ROUND = 400;
const ROUNDS = 6;

const noEvents = new Proxy({}, { get: (_, name) => (name === 'wantsItems' ? () => false : () => {}) }) as LiveEvents;

export default async function meteringBench(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-metering-'));
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  try {
    await migrateToLatest(handle.db);
    // Counters and items reference accounts; the bench has devices only.
    handle.sqlite!.pragma('foreign_keys = OFF');
    const now = Date.now();
    const devices = Array.from({ length: ACCOUNTS }, (_, i) => ({ userId: `user-${i}`, deviceId: `device-${i}` }));
    await handle.db.insertInto('devices').values(devices.map((d) => ({
      id: d.deviceId, user_id: d.userId, platform: 'ios', info: '{}', name_override: null, group_override: null,
      feature_toggles: '{}', last_seen: now, created_at: now, updated_at: now,
    }))).execute();
    const metered = createItemWriter(handle);
    const unmetered: ItemWriter = {
      transaction: (fn) => metered.transaction((ops) => fn({ ...ops, addTraffic: () => {} })),
      compact: metered.compact,
    };
    const blobs = new FileBlobStore(dataDir);
    const log = Fastify({ logger: false }).log;
    let n = 0;
    const round = async (writer: ItemWriter): Promise<number> => {
      const queue = new IngestQueue({ writer, events: noEvents, log, now: Date.now });
      // CPU time of this process, not wall time: the machine is shared, and waiting for the
      // scheduler is not what metering costs.
      const cpu = process.cpuUsage();
      for (let b = 0; b < BATCHES_PER_ROUND; b++) {
        const { userId, deviceId } = devices[b % ACCOUNTS]!;
        const items: DeviceItem[] = Array.from({ length: BATCH }, () => ({
          id: `item-${n++}`, type: 'log', createdAt: new Date().toISOString(), details: { message: `metering bench ${n}`, level: 'info' },
        }));
        const { rows } = prepareRows(items, { userId, deviceId, blobs, receivedAt: Date.now(), keepParsed: false });
        queue.enqueue({ userId, deviceId, rows, done: () => {} });
        // A few frames arrive per I/O turn, as from many devices: commits take several batches.
        if (b % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
      }
      await queue.drain();
      const used = process.cpuUsage(cpu);
      return (BATCHES_PER_ROUND * BATCH) / ((used.user + used.system) / 1e6);
    };
    await round(metered);
    const withMetering: number[] = [];
    const without: number[] = [];
    // Each round adds items, so the order alternates: neither side always meets the larger table.
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        without.push(await round(unmetered));
        withMetering.push(await round(metered));
      } else {
        withMetering.push(await round(metered));
        without.push(await round(unmetered));
      }
    }
    return [result({
      name: `batched ingest with metering (SQLite, ${ACCOUNTS} accounts, batches of ${BATCH}, items per CPU second, median of ${ROUNDS})`,
      value: Math.round(median(withMetering)), unit: 'items/s',
      baseline: 'the same commits without the counter upserts', baselineValue: Math.round(median(without)),
    })];
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
