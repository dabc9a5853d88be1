/**
 * Issue 14, SDK → stored: an app logging through the SDK against the server in its own process,
 * compared with the peer a user would pick instead.
 *
 *  - 50,000 logs from one app, from the first `log()` to `flush()` resolving (every item
 *    committed, hence queryable), against Reactotron's server (reactotron-core-server, in memory,
 *    nothing stored) receiving the same 50,000 logs from a raw websocket client, one message
 *    each as Reactotron's client sends them, until the server has counted them all
 *    (bench/fixtures/reactotron-peer.ts). Both include the client's own serialization.
 *  - Burst: 50,000 logs yielding to the event loop every 1,000 (as apps do between tasks): how
 *    many the database holds afterwards, and the most the SDK's outbox held.
 *
 * The app uses the SDK as users install it: the package's built `dist/` (built here first), not
 * the repository's TypeScript sources that tsx would compile on the fly.
 *
 * The server runs with its default limits: 50,000 items is within a device's burst allowance.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { WebSocket } from 'ws';
import type { createSpyglass as CreateSpyglass, SpyglassClient } from '@spyglass/sdk';
import { median, result, type BenchResult } from '../lib';
import { SERVER_MAIN, freePort } from '../../apps/server/test/support/server-process';
import { signUpBenchAccount, startBenchServer, stopBenchServer, type BenchServer } from '../server-processes';

const PEER = 'bench/fixtures/reactotron-peer.ts';
const SDK_DIST = path.resolve('packages/sdk/dist/node/index.js');
const ITEMS = 50_000;
const BURST = 1_000;
const ROUNDS = 3;

/** The built package's `createSpyglass`, after building it from the current sources. */
async function builtSdk(): Promise<typeof CreateSpyglass> {
  execFileSync('npm', ['run', 'build', '-w', '@spyglass/sdk'], { stdio: 'ignore' });
  return ((await import(pathToFileURL(SDK_DIST).href)) as { createSpyglass: typeof CreateSpyglass }).createSpyglass;
}

let createSpyglass: typeof CreateSpyglass;
let devices = 0;
async function connectSdk(url: string, apiKey: string): Promise<SpyglassClient> {
  const client = createSpyglass({
    serverUrl: url, apiKey, installId: `bench-sdk-${process.pid}-${devices++}`, capture: { fetch: false, xhr: false, http: false },
  });
  await new Promise<void>((resolve, reject) => {
    client.on('welcome', () => resolve());
    client.on('error', (error) => error.fatal && reject(error));
  });
  return client;
}

const message = (i: number) => `Loaded screen ${i} in ${i % 97} ms`;

/** Items per second from the first log() to flush() resolving. */
async function sdkLogs(url: string, apiKey: string, count: number): Promise<number> {
  const client = await connectSdk(url, apiKey);
  try {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) client.log(message(i), { level: 'info', category: 'bench' });
    await client.flush();
    const seconds = (performance.now() - t0) / 1000;
    if (client.stats().acknowledged !== count) throw new Error(`only ${client.stats().acknowledged} of ${count} acknowledged`);
    return count / seconds;
  } finally {
    await client.stop();
  }
}

let peerClients = 0;
/** Items per second from the first log sent to the peer's word that it counted them all. */
async function peerLogs(url: string, count: number): Promise<number> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const clientId = `bench-peer-${process.pid}-${peerClients++}`;
  const send = (type: string, payload: unknown) =>
    ws.send(JSON.stringify({ type, payload, important: false, date: new Date().toISOString(), deltaTime: 0 }));
  send('client.intro', { name: 'bench', clientId, reactotronLibraryName: 'reactotron-core-client', reactotronLibraryVersion: '2.10.0' });
  send('bench.expect', { count });
  const done = new Promise<void>((resolve) => ws.on('message', (data) => {
    if (data.toString().includes('"bench.done"')) resolve();
  }));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) send('log', { level: 'debug', message: message(i) });
  await done;
  const seconds = (performance.now() - t0) / 1000;
  ws.close();
  return count / seconds;
}

/** The burst: answers the items stored for the device and the most the outbox held (bytes). */
async function burst(s: BenchServer, apiKey: string): Promise<{ stored: number; distinct: number; peakBytes: number; dropped: number; seconds: number }> {
  const client = await connectSdk(s.url, apiKey);
  let peakBytes = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < ITEMS; i++) {
      client.log(message(i), { level: 'info', category: 'burst' });
      if ((i + 1) % BURST === 0) {
        peakBytes = Math.max(peakBytes, client.stats().bytes);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await client.flush();
  } finally {
    await client.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  const db = new Database(path.join(s.dataDir, 'spyglass.db'), { readonly: true });
  try {
    const row = db.prepare('select count(*) as n, count(distinct id) as d from items where device_id = ?').get(client.deviceId) as { n: number; d: number };
    return { stored: row.n, distinct: row.d, peakBytes, dropped: client.stats().dropped, seconds };
  } finally {
    db.close();
  }
}

export default async function sdkIngestSuite(): Promise<BenchResult[]> {
  createSpyglass = await builtSdk();
  const server = await startBenchServer(SERVER_MAIN);
  const peer = await startBenchServer(PEER, { PORT: String(await freePort()) });
  const ours: number[] = [];
  const theirs: number[] = [];
  let burstResult: Awaited<ReturnType<typeof burst>>;
  try {
    const { apiKey } = await signUpBenchAccount(server.url);
    // Warm-up: JIT on both sides, the server's statement caches and first WAL checkpoint.
    await sdkLogs(server.url, apiKey, 5_000);
    await peerLogs(peer.url, 5_000);
    // Alternated, so that a shared machine's noise hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await sdkLogs(server.url, apiKey, ITEMS));
      theirs.push(await peerLogs(peer.url, ITEMS));
    }
    burstResult = await burst(server, apiKey);
  } finally {
    await Promise.all([stopBenchServer(server), stopBenchServer(peer)]);
  }
  return [
    result({
      name: 'SDK → stored and queryable, 50,000 logs from one app, SQLite', value: median(ours), unit: 'items/s',
      baseline: "Reactotron's server (in memory) taking the same logs from a raw websocket client", baselineValue: median(theirs),
      goal: '≥1.0× baseline', notes: `median of ${ROUNDS} alternated rounds; from the first log() to flush() (every item committed)`,
    }),
    result({
      name: 'SDK burst: 50,000 logs, a yield every 1,000, items stored', value: burstResult.stored, unit: 'items',
      baseline: 'items logged', baselineValue: ITEMS, goal: 'all 50,000 stored (1.0×), SDK memory bounded',
      notes: `${burstResult.distinct} distinct, ${burstResult.dropped} dropped, in ${burstResult.seconds.toFixed(2)} s; the outbox held at most `
        + `${(burstResult.peakBytes / 1024 / 1024).toFixed(1)} MB (bound 32 MB)`,
    }),
  ];
}
