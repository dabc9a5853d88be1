import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CompactItem } from '@spyglass/protocol';
import type { LiveEvents } from '../live/live-events';
import { IngestQueue, type IngestFailure } from './ingest-queue';
import type { ItemColumns, ItemWriter, ItemWriterOps } from '../repositories/item-writer.repository';
import type { PreparedRow } from './item-rows';

const log = Fastify({ logger: false }).log;

function row(id: string, message: string, keepParsed = true): PreparedRow {
  const details = { message };
  return {
    columns: {
      user_id: 'user-1', device_id: 'dev-1', id, type: 'log', level: 'info', method: null, url: null, status: null, duration: null,
      size: 10, sent_at: null, created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000, tags: '[]', notes: null, is_mocked: 0,
      mock: null, mock_data: null, meta_data: null, details: JSON.stringify(details), request_body: null, request_body_blob: null,
      response_body: null, response_body_blob: null, image_blob: null,
    },
    parsed: keepParsed ? { details, tags: [], metaData: null } : null,
  };
}

/** An in-memory writer: items by id with their numbers; `log` records what happened in which order. */
function memoryWriter(log: string[]): ItemWriter {
  const nums = new Map<string, number>();
  let lastNum = 0;
  const ops: ItemWriterOps = {
    devices: (keys) => keys.map(({ userId, deviceId }) => ({ id: deviceId, user_id: userId, last_num: lastNum })),
    upsertForDevice(rows: ItemColumns[], last) {
      let next = last;
      const isNew = rows.map((r) => !nums.has(r.id));
      for (const r of rows) if (!nums.has(r.id)) nums.set(r.id, ++next);
      return { lastNum: next, nums: rows.map((r) => nums.get(r.id)!), isNew, storedSizes: rows.map(() => null) };
    },
    setLastNum(_, n) {
      lastNum = n;
    },
    addTraffic: () => {},
  };
  return {
    async transaction(fn) {
      const result = await fn(ops);
      log.push('commit');
      return result;
    },
    async compact({ deviceId }, ids) {
      log.push(`read back ${ids.join()}`);
      return ids.map((id) => ({ id, deviceId, num: nums.get(id)!, type: 'log', details: { message: 'as stored' } }) as CompactItem);
    },
  };
}

function setup(watching: () => boolean) {
  const log_: string[] = [];
  const published: CompactItem[][] = [];
  const events: LiveEvents = {
    deviceConnected: () => {},
    deviceUpdated: () => {},
    deviceDisconnected: () => {},
    userDefaultsChanged: () => {},
    deviceLimitReached: () => {},
    quotaChanged: () => {},
    itemsUpserted: (_, __, items) => published.push(items),
    routeConsoleChanged: () => {},
    screenCaptureSignal: () => {},
    wantsItems: () => {
      log_.push('asked');
      return watching();
    },
  };
  const queue = new IngestQueue({ writer: memoryWriter(log_), events, log, now: () => 1_700_000_000_000 });
  const send = (rows: PreparedRow[]) => new Promise<IngestFailure | null>((resolve) => {
    queue.enqueue({ userId: 'user-1', deviceId: 'dev-1', rows, done: resolve });
  });
  return { queue, send, published, log: log_ };
}

describe('IngestQueue and the live side', () => {
  it('builds and publishes nothing while nobody watches, and asks only after the commit', async () => {
    const { send, published, log } = setup(() => false);
    expect(await send([row('a', 'one'), row('b', 'two')])).toBeNull();
    expect(published).toEqual([]);
    expect(log).toEqual(['commit', 'asked']);
  });

  it('publishes new items as built and updated ones as stored, in commit order', async () => {
    const { send, published, queue } = setup(() => true);
    await send([row('a', 'one')]);
    // Two frames in one commit: "a" again (an update) between two new items.
    // "c" arrived while nobody watched: its JSON columns are parsed back from the row.
    const both = Promise.all([send([row('b', 'two')]), send([row('a', 'changed'), row('c', 'three', false)])]);
    expect(await both).toEqual([null, null]);
    await queue.drain();
    expect(published.map((items) => items.map((i) => [i.id, i.num, (i.details as { message: string }).message]))).toEqual([
      [['a', 1, 'one']],
      [['b', 2, 'two'], ['a', 1, 'as stored'], ['c', 3, 'three']],
    ]);
  });
});

describe('IngestQueue with concurrent commits (PostgreSQL)', () => {
  /** A writer whose commits finish only when the test says so; it records which devices each commit held. */
  function gatedWriter() {
    const commits: Array<{ devices: string[]; finish: () => void }> = [];
    const writer: ItemWriter = {
      async transaction(fn) {
        const devices: string[] = [];
        let last = 0;
        const result = await fn({
          devices: (keys) => keys.map(({ userId, deviceId }) => {
            devices.push(deviceId);
            return { id: deviceId, user_id: userId, last_num: 0 };
          }),
          upsertForDevice: (rows) => ({ lastNum: last += rows.length, nums: rows.map(() => ++last), isNew: rows.map(() => true), storedSizes: rows.map(() => null) }),
          setLastNum: () => {},
          addTraffic: () => {},
        });
        await new Promise<void>((resolve) => commits.push({ devices, finish: resolve }));
        return result;
      },
      compact: async () => [],
    };
    return { writer, commits };
  }

  it("overlaps commits of different devices and keeps each device's batches in order", async () => {
    const { writer, commits } = gatedWriter();
    const events: LiveEvents = {
      deviceConnected: () => {}, deviceUpdated: () => {}, deviceDisconnected: () => {}, userDefaultsChanged: () => {}, deviceLimitReached: () => {}, quotaChanged: () => {},
      itemsUpserted: () => {}, routeConsoleChanged: () => {}, wantsItems: () => false, screenCaptureSignal: () => {},
    } as LiveEvents;
    const queue = new IngestQueue({ writer, events, log, now: () => 1_700_000_000_000, concurrentCommits: 2 });
    const done: string[] = [];
    const send = (deviceId: string, name: string) => queue.enqueue({
      userId: 'user-1', deviceId, rows: [row(name, name)], done: () => done.push(name),
    });
    send('phone', 'phone-1');
    await expect.poll(() => commits.length).toBe(1);
    // The phone's commit is in flight: the tablet's batch commits beside it, the phone's next waits.
    send('phone', 'phone-2');
    send('tablet', 'tablet-1');
    await expect.poll(() => commits.length).toBe(2);
    expect(commits.map((c) => c.devices)).toEqual([['phone'], ['tablet']]);
    commits[1]!.finish();
    await expect.poll(() => done).toEqual(['tablet-1']);
    commits[0]!.finish();
    await expect.poll(() => commits.length).toBe(3);
    expect(commits[2]!.devices).toEqual(['phone']);
    commits[2]!.finish();
    await queue.drain();
    expect(done).toEqual(['tablet-1', 'phone-1', 'phone-2']);
  });
});
