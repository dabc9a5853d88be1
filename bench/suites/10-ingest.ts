/**
 * Issues 4 and 14, ingest performance (goals of issue 14). Items per second through `/ws?type=device` into the database,
 * from first frame sent to last ack, with the server in its own process and the devices here.
 *
 *  - Batched frames (100 items), SQLite: the server (validation, row preparation, group commit,
 *    display numbers, traffic counting) against a bare pipeline: a `ws` server inserting the same
 *    rows with one better-sqlite3 prepared statement in a transaction per frame, no validation
 *    (bench/fixtures/bare-ingest.ts).
 *  - One item per frame, SQLite: the server against a bare `ws` echo that acks without storing.
 *  - Batched frames on PostgreSQL: the server against its own SQLite figure.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { WebSocket } from 'ws';
import { PROTOCOL_VERSION, type DeviceItem } from '@spyglass/protocol';
import { median, result, type BenchResult } from '../lib';
import { SERVER_MAIN } from '../../apps/server/test/support/server-process';
import { UNLIMITED_INGEST, signUpBenchAccount, startBenchServer, stopBenchServer } from '../server-processes';

const BARE = 'bench/fixtures/bare-ingest.ts';
const DEVICES = 4;
/** Each figure is the median of this many runs, the server and its baseline alternating. */
const ROUNDS = 3;
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Scenario {
  itemsPerFrame: number;
  framesPerDevice: number;
  /** Frames a device keeps in flight (sent, not yet acked). */
  window: number;
}

const BATCHED: Scenario = { itemsPerFrame: 100, framesPerDevice: 150, window: 16 };
const SINGLE: Scenario = { itemsPerFrame: 1, framesPerDevice: 4000, window: 64 };

let counter = 0;
function item(): DeviceItem {
  const n = counter++;
  const id = `${n.toString(36)}-${crypto.randomBytes(6).toString('hex')}`;
  const createdAt = new Date().toISOString();
  if (n % 2 === 0) return { id, type: 'log', createdAt, level: 'info', details: { message: `Loaded screen ${n} in ${n % 97} ms`, level: 'info', category: 'ui' } };
  return {
    id, type: 'network', createdAt,
    details: {
      request: { method: 'GET', url: `https://api.example.com/v1/products/${n}?lang=en`, headers: { accept: 'application/json', 'user-agent': 'Bench/1.0' }, startedAt: createdAt },
      response: {
        statusCode: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
        body: JSON.stringify({ id: n, name: `Product ${n}`, price: n % 1000, tags: ['a', 'b', 'c'], description: 'x'.repeat(240) }),
        receivedAt: createdAt,
      },
      timings: { total: n % 300 },
    },
  };
}

/** Runs `scenario` with DEVICES devices at once; answers items per second (first send to last ack). */
async function ingest(url: string, apiKey: string, scenario: Scenario): Promise<number> {
  const devices = await Promise.all(Array.from({ length: DEVICES }, async (_, d) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?type=device`, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, apiKey, deviceId: `bench-${Date.now()}-${d}`, device: { platform: 'ios', name: `Bench ${d}` } }));
    await new Promise<void>((resolve, reject) => ws.once('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'welcome') resolve();
      else reject(new Error(`no welcome: ${data.toString()}`));
    }));
    // Serialized before the clock starts: the devices' own JSON work is not what is measured.
    const frames = Array.from({ length: scenario.framesPerDevice }, (_, seq) =>
      JSON.stringify({ type: 'items', seq, items: Array.from({ length: scenario.itemsPerFrame }, item) }));
    return { ws, frames };
  }));

  const t0 = performance.now();
  await Promise.all(devices.map(({ ws, frames }) => new Promise<void>((resolve, reject) => {
    let sent = 0;
    let acked = 0;
    const sendMore = () => {
      while (sent < frames.length && sent - acked < scenario.window) ws.send(frames[sent++]!);
    };
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'ack') {
        acked = frame.seq + 1;
        if (acked === frames.length) resolve();
        else sendMore();
      } else if (frame.type === 'error') {
        reject(new Error(`server refused a frame: ${data.toString()}`));
      }
    });
    sendMore();
  })));
  const seconds = (performance.now() - t0) / 1000;
  for (const { ws } of devices) ws.close();
  return (DEVICES * scenario.framesPerDevice * scenario.itemsPerFrame) / seconds;
}

async function withServer<T>(script: string, env: Record<string, string>, fn: (url: string, apiKey: string) => Promise<T>): Promise<T> {
  const s = await startBenchServer(script, env);
  try {
    const apiKey = script === SERVER_MAIN ? (await signUpBenchAccount(s.url)).apiKey : 'bare';
    // Warm-up: JIT, statement caches, the first WAL checkpoint.
    await ingest(s.url, apiKey, { ...BATCHED, framesPerDevice: 20 });
    return await fn(s.url, apiKey);
  } finally {
    await stopBenchServer(s);
  }
}

async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `sg_bench_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: PG_URL.replace(/\/[^/]*$/, `/${name}`),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Runs a and b alternately, so that machine noise hits both alike; answers their medians. */
async function alternate(a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}

export default async function ingestSuite(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const [serverBatched, bareBatched] = await alternate(
    () => withServer(SERVER_MAIN, UNLIMITED_INGEST, (url, key) => ingest(url, key, BATCHED)),
    () => withServer(BARE, { BARE_MODE: 'sqlite' }, (url, key) => ingest(url, key, BATCHED)),
  );
  results.push(result({
    name: 'ingest, frames of 100 items, SQLite', value: serverBatched, unit: 'items/s',
    baseline: 'bare ws + better-sqlite3 insert per frame', baselineValue: bareBatched, goal: '≥0.9× baseline',
    notes: `${DEVICES} devices, ${BATCHED.window} frames in flight each; median of ${ROUNDS}`,
  }));

  const [serverSingle, echoSingle] = await alternate(
    () => withServer(SERVER_MAIN, UNLIMITED_INGEST, (url, key) => ingest(url, key, SINGLE)),
    () => withServer(BARE, { BARE_MODE: 'echo' }, (url, key) => ingest(url, key, SINGLE)),
  );
  results.push(result({
    name: 'ingest, one item per frame, SQLite', value: serverSingle, unit: 'items/s',
    baseline: 'bare ws echo (ack without storing)', baselineValue: echoSingle, goal: '≥0.5× baseline',
    notes: `${DEVICES} devices, ${SINGLE.window} frames in flight each; median of ${ROUNDS}`,
  }));

  const database = await postgresDatabase();
  if (database) {
    try {
      const [serverPg, serverSqlite] = await alternate(
        () => withServer(SERVER_MAIN, { ...UNLIMITED_INGEST, DATABASE_URL: database.url }, (url, key) => ingest(url, key, BATCHED)),
        () => withServer(SERVER_MAIN, UNLIMITED_INGEST, (url, key) => ingest(url, key, BATCHED)),
      );
      results.push(result({
        name: 'ingest, frames of 100 items, PostgreSQL', value: serverPg, unit: 'items/s',
        baseline: 'the same ingest on SQLite', baselineValue: serverSqlite, goal: '≥0.6× the SQLite figure',
        notes: `median of ${ROUNDS}, alternating with SQLite`,
      }));
    } finally {
      await database.drop();
    }
  }
  return results;
}
