/**
 * Issue 22, several nodes. Each part runs alone when picked by BENCH_SCALE (the machine is
 * shared): `BENCH_SCALE=latency npm run bench -- 90-scale`, then `idle`, then `soak` (default: all
 * three in turn).
 *
 *  - latency: device on node A → viewer on node B (Redis bus, one PostgreSQL database), against
 *    device and viewer on one node of the same pair in the same run (the single-node path: the
 *    bus delivers to local viewers without Redis).
 *  - idle: 10,000 devices connected to one node and answering its heartbeats: server memory per
 *    device (RSS after, minus RSS before, over 10,000) and the CPU the heartbeats cost (the
 *    server's user + system time over two heartbeat periods).
 *  - soak: 1,000 devices at SOAK_ITEMS_PER_S (default 5) items/s each across two nodes for SOAK_SECONDS (default 120: a short
 *    soak, not the issue's 10 minutes, on a machine shared with others): both nodes' RSS every
 *    10 s, ack latency p99 per 30 s, and every item stored exactly once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { WebSocket } from 'ws';
import { DEVICE_LIMIT, DEVICE_LIMITS, PROTOCOL_VERSION, type DeviceItem } from '@spyglass/protocol';
import { percentile, result, type BenchResult } from '../lib';
import { SERVER_MAIN, waitForOk } from '../../apps/server/test/support/server-process';
import { UNLIMITED_INGEST, rssMb, signUpBenchAccount, startBenchServer, stopBenchServer, type BenchAccount, type BenchServer } from '../server-processes';
import { createTestDatabase, type TestDatabase } from '../../apps/server/test/support/pg-database';
import { isolatedRedisUrl } from '../../apps/server/test/support/redis';

const PART = process.env.BENCH_SCALE ?? 'all';
const LATENCY_RATE = 2_000;
const LATENCY_SECONDS = 6;
const LATENCY_FRAME_ITEMS = 10;
const IDLE_DEVICES = Number(process.env.BENCH_IDLE_DEVICES ?? 10_000);
const SOAK_DEVICES = 1_000;
const SOAK_ITEMS_PER_S = Number(process.env.SOAK_ITEMS_PER_S ?? 5);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 120);

async function startNode(env: Record<string, string>): Promise<BenchServer> {
  const node = await startBenchServer(SERVER_MAIN, {
    AUTH_RATE_LIMIT_PER_IP: '100000', AUTH_RATE_LIMIT_PER_EMAIL: '100000', MAX_CONNECTIONS_PER_IP: '0', ...UNLIMITED_INGEST, ...env,
  });
  await waitForOk(`${node.url}/healthz`);
  return node;
}

async function startPair(): Promise<{ a: BenchServer; b: BenchServer; database: TestDatabase; stop(): Promise<void> }> {
  const database = await createTestDatabase('spyglass_bench');
  const env = { DATABASE_URL: database.url, REDIS_URL: await isolatedRedisUrl(14) };
  const a = await startNode(env);
  const b = await startNode(env);
  return {
    a, b, database,
    async stop() {
      await Promise.all([stopBenchServer(a), stopBenchServer(b)]);
      await database.drop();
    },
  };
}

/** User + system CPU seconds the process used so far. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Accounts a few at a time: each sign-up hashes a password, which takes memory and a thread. */
async function signUpMany(url: string, count: number): Promise<BenchAccount[]> {
  const accounts = [];
  for (let i = 0; i < count; i += 4) accounts.push(...(await Promise.all(Array.from({ length: Math.min(4, count - i) }, () => signUpBenchAccount(url)))));
  return accounts;
}

/** A raw device that answers the server's pings, as every SDK does. */
async function connectDevice(url: string, apiKey: string, deviceId: string, onFrame?: (frame: { type: string; seq?: number }) => void): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?type=device`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, apiKey, deviceId, device: { platform: 'android', name: deviceId } }));
  await new Promise<void>((resolve, reject) => {
    ws.once('close', (code) => reject(new Error(`device ${deviceId} closed before its welcome (${code})`)));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; t?: number; seq?: number };
      if (frame.type === 'welcome') resolve();
      else if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
      else if (frame.type === 'error' && frame.seq === undefined) reject(new Error(data.toString()));
      else onFrame?.(frame);
    });
  });
  return ws;
}

let counter = 0;
function logItem(sentAt: number): DeviceItem {
  const n = counter++;
  return {
    id: `${n.toString(36)}-${crypto.randomBytes(6).toString('hex')}`, type: 'log', createdAt: new Date().toISOString(), metaData: { t: sentAt },
    details: { message: `Loaded screen ${n} in ${n % 97} ms`, level: 'info' },
  };
}

/** Device on `deviceNode` → viewer on `viewerNode`: item sent → item shown, ms, sorted (first second skipped). */
async function viewerLatency(deviceNode: BenchServer, viewerNode: BenchServer, keys: { token: string; apiKey: string }): Promise<number[]> {
  const deviceId = `bench-scale-${crypto.randomUUID()}`;
  const device = await connectDevice(deviceNode.url, keys.apiKey, deviceId);
  const latencies: number[] = [];
  const viewer = new WebSocket(`${viewerNode.url.replace(/^http/, 'ws')}/ws?type=viewer&token=${keys.token}`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    viewer.once('open', () => resolve());
    viewer.once('error', reject);
  });
  viewer.send(JSON.stringify({ type: 'subscribe', deviceId, batches: true }));
  viewer.send(JSON.stringify({ type: 'ping' }));
  await new Promise<void>((resolve) => viewer.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; requests?: Array<{ metaData: { t: number } }> };
    if (message.type === 'pong') resolve();
    if (message.type === 'new_requests') for (const request of message.requests!) latencies.push(performance.now() - request.metaData.t);
  }));
  const total = LATENCY_RATE * LATENCY_SECONDS;
  const frameEveryMs = (LATENCY_FRAME_ITEMS / LATENCY_RATE) * 1000;
  let seq = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const pump = () => {
      const due = Math.min(total / LATENCY_FRAME_ITEMS, Math.floor((performance.now() - t0) / frameEveryMs) + 1);
      while (seq < due) {
        const sentAt = performance.now();
        device.send(JSON.stringify({ type: 'items', seq: seq++, items: Array.from({ length: LATENCY_FRAME_ITEMS }, () => logItem(sentAt)) }));
      }
      if (seq * LATENCY_FRAME_ITEMS >= total) resolve();
      else setTimeout(pump, 1);
    };
    pump();
  });
  const deadline = Date.now() + 15_000;
  while (latencies.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  device.close();
  viewer.close();
  if (latencies.length < total) throw new Error(`the viewer saw ${latencies.length} of ${total} items`);
  return latencies.slice(LATENCY_RATE).sort((a, b) => a - b);
}

/** Messages of `bytes` a second that one Redis carries from one publisher to `subscribers` connections (the bus's fan-out). */
async function redisFanOut(subscribers: number, bytes: number): Promise<number> {
  const url = await isolatedRedisUrl(14);
  const channel = `spyglass-bench-${crypto.randomUUID()}`;
  const publisher = new Redis(url);
  const subs = Array.from({ length: subscribers }, () => new Redis(url));
  const MESSAGES = 20_000;
  let received = 0;
  const done = new Promise<void>((resolve) => {
    for (const sub of subs) sub.on('message', () => {
      if (++received === MESSAGES * subscribers) resolve();
    });
  });
  await Promise.all(subs.map((sub) => sub.subscribe(channel)));
  const payload = 'x'.repeat(bytes);
  const t0 = performance.now();
  for (let i = 0; i < MESSAGES; i += 500) {
    const batch = publisher.pipeline();
    for (let j = 0; j < 500; j++) batch.publish(channel, payload);
    await batch.exec();
  }
  await done;
  const perSecond = MESSAGES / ((performance.now() - t0) / 1000);
  publisher.disconnect();
  for (const sub of subs) sub.disconnect();
  return perSecond;
}

async function latencyPart(): Promise<BenchResult[]> {
  const pair = await startPair();
  try {
    const keys = await signUpBenchAccount(pair.a.url);
    // Alternated, so that the database's growth and the machine's noise hit both alike.
    const cross: number[] = [];
    const same: number[] = [];
    for (let round = 0; round < 2; round++) {
      same.push(...(await viewerLatency(pair.a, pair.a, keys)));
      cross.push(...(await viewerLatency(pair.a, pair.b, keys)));
    }
    cross.sort((x, y) => x - y);
    same.sort((x, y) => x - y);
    const fanOut = await redisFanOut(4, 2048);
    return [result({
      name: 'Redis bus fan-out: 2 KB messages a second, one publisher to 4 subscribed nodes', value: fanOut, unit: 'messages/s',
      baseline: null, baselineValue: null, notes: `pipelined PUBLISH of 20,000 messages; ${Math.round(fanOut * 4).toLocaleString('en-US')} deliveries/s`,
    }), ...[50, 99].map((p) => result({
      name: `device on node A → viewer on node B, p${p}, ${LATENCY_RATE.toLocaleString('en-US')} items/s`, value: percentile(cross, p), unit: 'ms',
      baseline: 'device and viewer on one node (same pair, same run)', baselineValue: percentile(same, p), goal: p === 99 ? '≤2× baseline' : undefined,
      notes: `PostgreSQL + Redis, frames of ${LATENCY_FRAME_ITEMS} items, 2 alternated rounds of ${LATENCY_SECONDS} s each`,
    }))];
  } finally {
    await pair.stop();
  }
}

async function idlePart(): Promise<BenchResult[]> {
  const database = await createTestDatabase('spyglass_bench');
  const node = await startNode({ DATABASE_URL: database.url });
  const sockets: WebSocket[] = [];
  try {
    const accounts = await signUpMany(node.url, Math.ceil(IDLE_DEVICES / DEVICE_LIMIT));
    // One device first, so that the code paths and pools of a connected device count in "before".
    sockets.push(await connectDevice(node.url, accounts[0]!.apiKey, 'warm-up'));
    await new Promise((r) => setTimeout(r, 2000));
    const before = rssMb(node.proc.child.pid!);
    for (let i = 1; i < IDLE_DEVICES; i += 200) {
      const batch = Array.from({ length: Math.min(200, IDLE_DEVICES - i) }, (_, j) => i + j);
      sockets.push(...(await Promise.all(batch.map((n) => connectDevice(node.url, accounts[Math.floor(n / DEVICE_LIMIT)]!.apiKey, `idle-${n}`)))));
      if ((i - 1) % 2000 === 0) console.log(`  ${sockets.length.toLocaleString('en-US')} devices connected`);
    }
    // Settled: the hellos' garbage collected, a heartbeat round done.
    await new Promise((r) => setTimeout(r, DEVICE_LIMITS.heartbeatIntervalMs));
    const after = rssMb(node.proc.child.pid!);
    const periods = 2;
    const cpu0 = cpuSeconds(node.proc.child.pid!);
    await new Promise((r) => setTimeout(r, periods * DEVICE_LIMITS.heartbeatIntervalMs));
    const cpuShare = (cpuSeconds(node.proc.child.pid!) - cpu0) / (periods * DEVICE_LIMITS.heartbeatIntervalMs / 1000);
    const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    if (open !== IDLE_DEVICES) throw new Error(`${IDLE_DEVICES - open} devices were closed while idle`);
    return [
      result({
        name: `server memory per idle device (${IDLE_DEVICES.toLocaleString('en-US')} heartbeating)`, value: ((after - before) * 1024) / (IDLE_DEVICES - 1), unit: 'KB',
        baseline: null, baselineValue: null, goal: '≤50 KB', notes: `RSS ${before.toFixed(0)} MB with one device, ${after.toFixed(0)} MB with ${IDLE_DEVICES.toLocaleString('en-US')}; PostgreSQL`,
      }),
      result({
        name: `heartbeat CPU, ${IDLE_DEVICES.toLocaleString('en-US')} idle devices`, value: cpuShare * 100, unit: '% of a core',
        baseline: null, baselineValue: null, goal: '≤10 %', notes: `user + system time over ${periods} heartbeat periods of ${DEVICE_LIMITS.heartbeatIntervalMs / 1000} s (pings, pongs, last_seen writes)`,
      }),
    ];
  } finally {
    for (const ws of sockets) ws.terminate();
    await stopBenchServer(node);
    await database.drop();
  }
}

async function soakPart(): Promise<BenchResult[]> {
  const pair = await startPair();
  const sockets: WebSocket[] = [];
  try {
    const nodes = [pair.a, pair.b];
    const accounts = await signUpMany(pair.a.url, SOAK_DEVICES / DEVICE_LIMIT);
    const sentAt = new Map<string, number>();
    const acks: Array<{ at: number; ms: number }> = [];
    let sent = 0;
    let acked = 0;
    let refused = 0;
    const devices: Array<{ ws: WebSocket; id: string; seq: number }> = [];
    for (let n = 0; n < SOAK_DEVICES; n += 100) {
      devices.push(...(await Promise.all(Array.from({ length: 100 }, async (_, j) => {
        const index = n + j;
        const id = `soak-${index}`;
        const ws = await connectDevice(nodes[index % 2]!.url, accounts[Math.floor(index / DEVICE_LIMIT)]!.apiKey, id, (frame) => {
          if (frame.type === 'ack') {
            const key = `${id}:${frame.seq}`;
            const t = sentAt.get(key);
            if (t !== undefined) {
              acks.push({ at: performance.now(), ms: performance.now() - t });
              sentAt.delete(key);
              acked += SOAK_ITEMS_PER_S;
            }
          } else if (frame.type === 'error') refused++;
        });
        sockets.push(ws);
        return { ws, id, seq: 0 };
      }))));
    }
    const rss: string[] = [];
    const start = performance.now();
    const sampler = setInterval(() => {
      rss.push(`${Math.round((performance.now() - start) / 1000)} s: A ${rssMb(pair.a.proc.child.pid!).toFixed(0)} / B ${rssMb(pair.b.proc.child.pid!).toFixed(0)} MB`);
    }, 10_000);
    // Each device sends one frame of 5 items a second, the devices spread over the second.
    await new Promise<void>((resolve) => {
      let tick = 0;
      const timer = setInterval(() => {
        const elapsed = performance.now() - start;
        if (elapsed >= SOAK_SECONDS * 1000) {
          clearInterval(timer);
          resolve();
          return;
        }
        const slice = tick++ % 10;
        for (let d = slice; d < devices.length; d += 10) {
          const device = devices[d]!;
          const t = performance.now();
          sentAt.set(`${device.id}:${device.seq}`, t);
          device.ws.send(JSON.stringify({ type: 'items', seq: device.seq++, items: Array.from({ length: SOAK_ITEMS_PER_S }, () => logItem(t)) }));
          sent += SOAK_ITEMS_PER_S;
        }
      }, 100);
    });
    const sendingEnded = performance.now();
    // What the nodes could not take as fast as it came is still queued: wait for it (bounded).
    const deadline = Date.now() + 300_000;
    while (acked + refused * SOAK_ITEMS_PER_S < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const drainedMs = performance.now() - sendingEnded;
    clearInterval(sampler);
    // Closed before counting, so that nothing is acknowledged after the count.
    for (const ws of sockets) ws.terminate();
    const ackedAtEnd = acked;
    const client = new pg.Client({ connectionString: pair.database.url });
    await client.connect();
    const { rows } = await client.query<{ total: string; distinct: string }>('SELECT count(*) AS total, count(DISTINCT (user_id, device_id, id)) AS distinct FROM items');
    const size = await client.query<{ bytes: string }>("SELECT pg_total_relation_size('items') AS bytes");
    await client.end();
    const stored = Number(rows[0]!.total);
    const distinct = Number(rows[0]!.distinct);
    const windows: string[] = [];
    for (let w = 0; w * 30 < SOAK_SECONDS; w++) {
      const inWindow = acks.filter((a) => a.at - start >= w * 30_000 && a.at - start < (w + 1) * 30_000).map((a) => a.ms).sort((x, y) => x - y);
      windows.push(`${w * 30}-${(w + 1) * 30} s: ${percentile(inWindow, 99).toFixed(0)} ms`);
    }
    const all = acks.map((a) => a.ms).sort((x, y) => x - y);
    return [
      result({
        name: `soak: items stored once, ${SOAK_DEVICES.toLocaleString('en-US')} devices × ${SOAK_ITEMS_PER_S}/s × ${SOAK_SECONDS} s on two nodes`, value: stored, unit: 'items',
        baseline: 'items acknowledged', baselineValue: ackedAtEnd, goal: 'stored = acknowledged = sent, no duplicate',
        notes: `sent ${sent}, acknowledged ${ackedAtEnd}, refused frames ${refused}, distinct stored ${distinct}; `
          + `the last acknowledgement ${(drainedMs / 1000).toFixed(0)} s after the last frame, so ${Math.round(ackedAtEnd / ((SOAK_SECONDS * 1000 + drainedMs) / 1000))} items/s were stored on average`,
      }),
      result({
        name: 'soak: PostgreSQL bytes per stored log item (table and indexes)', value: Number(size.rows[0]!.bytes) / Math.max(1, stored), unit: 'bytes',
        baseline: null, baselineValue: null, notes: `${(Number(size.rows[0]!.bytes) / 1024 / 1024).toFixed(0)} MB for ${stored} items`,
      }),
      result({
        name: 'soak: ack latency p99', value: percentile(all, 99), unit: 'ms', baseline: null, baselineValue: null,
        goal: 'stable', notes: `p50 ${percentile(all, 50).toFixed(0)} ms; p99 per 30 s: ${windows.join('; ')}`,
      }),
      result({
        name: 'soak: RSS of the two nodes at the end', value: rssMb(pair.a.proc.child.pid!) + rssMb(pair.b.proc.child.pid!), unit: 'MB',
        baseline: null, baselineValue: null, goal: 'flat after warm-up', notes: `every 10 s: ${rss.join('; ')}`,
      }),
    ];
  } finally {
    for (const ws of sockets) ws.terminate();
    await pair.stop();
  }
}

export default async function scaleSuite(): Promise<BenchResult[]> {
  const parts: Record<string, () => Promise<BenchResult[]>> = { latency: latencyPart, idle: idlePart, soak: soakPart };
  const picked = PART === 'all' ? Object.keys(parts) : PART.split(',');
  const results: BenchResult[] = [];
  for (const name of picked) {
    const part = parts[name];
    if (!part) throw new Error(`BENCH_SCALE must name latency, idle or soak, got ${name}`);
    results.push(...(await part()));
  }
  // A shared machine's load says how much the figures may owe to others.
  const load = `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores at the end`;
  return results.map((r) => ({ ...r, notes: r.notes ? `${r.notes}; ${load}` : load }));
}
