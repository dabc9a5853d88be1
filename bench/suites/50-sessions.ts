/**
 * Issue 6, performance: sessions on the embedded engine (SQLite), in-process (buildApp).
 * - Saving a session of 100,000 items: POST /v1/sessions with 100,000 ids (body parsing and
 *   validation included), against a bare copy of the same rows (`INSERT INTO copy SELECT * FROM
 *   items WHERE device_id = ?`, no session, no numbering, no checks). Goal ≤2 s.
 * - Opening it: every page of its items (GET /v1/sessions/{id}/items), against the live list's
 *   history load of the same rows (GET /v1/requests), the inspector's own path.
 * - data.json of that session on the share host: time to first byte (goal ≤200 ms), the whole
 *   download, and the server's heap growth while streaming it (live heap, sampled after a
 *   collection every 4 MB), against the document's size
 *   (what an answer built in memory would hold at least). The first byte is also compared with
 *   the first byte of a 10-item session's data.json (the fixed cost of a request).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER, type CompactItem } from '../../packages/protocol/src/index';
import { generateItems } from '../../packages/protocol/src/item-fixtures';
import { buildApp } from '../../apps/server/src/app';
import type { NewItemRow } from '../../apps/server/src/repositories/item-columns';
import { median, result, type BenchResult } from '../lib';

const N = 100_000;
const RUNS = 3;

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function toRow(item: CompactItem, userId: string, deviceId: string, num: number): NewItemRow {
  const details = structuredClone(item.details) as Record<string, unknown>;
  let requestBody: string | null = null;
  let responseBody: string | null = null;
  if (item.type === 'network') {
    const d = details as { request: { body?: string | null }; response?: { body?: string | null } };
    requestBody = d.request.body ?? null;
    responseBody = d.response?.body ?? null;
    delete d.request.body;
    if (d.response) delete d.response.body;
  }
  const created = Date.parse(item.createdAt);
  const json = JSON.stringify(details);
  return {
    user_id: userId, device_id: deviceId, id: `${item.id}-${num}`, num, type: item.type, level: item.level, method: item.method,
    url: item.url, status: item.status, duration: item.duration, size: json.length + (requestBody?.length ?? 0) + (responseBody?.length ?? 0),
    sent_at: null, created_at: created, updated_at: created, tags: '[]', notes: null, is_mocked: 0, mock: null, mock_data: null,
    meta_data: null, details: json, request_body: requestBody, request_body_blob: null, response_body: responseBody, response_body_blob: null,
    image_blob: null,
  };
}

/** Time to the first byte and to the end of a GET, and the bytes received. */
/** Every this many bytes received, a download calls `onProgress` (the heap sampler). */
const SAMPLE_EVERY_BYTES = 4 * 1024 * 1024;

function download(url: string, onProgress?: () => void): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstByteMs = -1;
    let bytes = 0;
    http.get(url, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        const before = Math.floor(bytes / SAMPLE_EVERY_BYTES);
        bytes += chunk.length;
        if (onProgress && Math.floor(bytes / SAMPLE_EVERY_BYTES) > before) onProgress();
      });
      res.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - t0, bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export default async function sessions(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-bench-sessions-'));
  const app = await buildApp({ logger: false, config: { dataDir, databaseUrl: null, authRateLimit: { perIp: 1e6, perEmail: 1e6, windowS: 60 } } });
  try {
    const headers = { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD };
    const signup = await app.inject({ method: 'POST', url: '/v1/auth/signup', headers, payload: { email: 'bench-sessions@example.com', password: 'correct-horse-42!' } });
    const { token, profile } = signup.json() as { token: string; profile: { id: string } };
    const auth = { ...headers, authorization: `Bearer ${token}` };
    const db = app.ctx.db;
    const deviceId = 'bench-device';
    const now = Date.now();
    await db.insertInto('devices').values({
      id: deviceId, user_id: profile.id, platform: 'ios', info: JSON.stringify({ platform: 'ios', name: 'Bench iPhone', clientAppVersion: '4.2.0' }),
      name_override: null, group_override: null, feature_toggles: JSON.stringify({ logs: true, network: true, prints: true, events: true }),
      last_seen: now, created_at: now, updated_at: now,
    }).execute();
    const rows = generateItems(N).map((item, i) => toRow(item, profile.id, deviceId, i + 1));
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('items').values(rows.slice(i, i + 1000)).execute();
    const ids = rows.map((r) => r.id);
    const payload = JSON.stringify({ deviceId, name: 'Bench session', requestIds: ids });

    // Baseline: the same rows copied by the database alone.
    await sql`create table items_copy as select * from items where 0`.execute(db);
    const bare: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      await sql`delete from items_copy`.execute(db);
      const t0 = performance.now();
      await sql`insert into items_copy select * from items where device_id = ${deviceId}`.execute(db);
      if (i > 0) bare.push(performance.now() - t0);
    }

    const save: number[] = [];
    let sessionId = '';
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'POST', url: '/v1/sessions', headers: auth, payload });
      const ms = performance.now() - t0;
      if (res.statusCode !== 201) throw new Error(`save failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
      sessionId = (res.json() as { id: string }).id;
      if (i > 0) save.push(ms);
    }

    // Opening the session in the page: every page of its items, against the live list's own
    // history load of the same 100,000 rows (GET /v1/requests, the inspector's path).
    const pagesOf = async (first: string, next: (body: { nextAfter?: number | null; nextBefore?: number | null }) => string | null) => {
      let url: string | null = first;
      let count = 0;
      while (url) {
        const res = await app.inject({ method: 'GET', url, headers: auth });
        const body = res.json() as { items: unknown[]; nextAfter?: number | null; nextBefore?: number | null };
        count += body.items.length;
        url = next(body);
      }
      if (count !== N) throw new Error(`loaded ${count} of ${N} items`);
    };
    const openSession = () => pagesOf(`/v1/sessions/${sessionId}/items?limit=5000`, (b) => (b.nextAfter ? `/v1/sessions/${sessionId}/items?limit=5000&after=${b.nextAfter}` : null));
    const openLive = () => pagesOf(`/v1/requests?deviceId=${deviceId}&limit=5000`, (b) => (b.nextBefore ? `/v1/requests?deviceId=${deviceId}&limit=5000&before=${b.nextBefore}` : null));
    const opened: number[] = [];
    const live: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      let t0 = performance.now();
      await openLive();
      if (i > 0) live.push(performance.now() - t0);
      t0 = performance.now();
      await openSession();
      if (i > 0) opened.push(performance.now() - t0);
    }

    // Issue 15: the page shows a first page of 200 items at once, then asks for pages of 5,000.
    const firstPage: number[] = [];
    const streamed: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      let t0 = performance.now();
      await app.inject({ method: 'GET', url: `/v1/sessions/${sessionId}/items?limit=200`, headers: auth });
      if (i > 0) firstPage.push(performance.now() - t0);
      t0 = performance.now();
      await pagesOf(`/v1/sessions/${sessionId}/items?limit=200`, (b) => (b.nextAfter ? `/v1/sessions/${sessionId}/items?limit=5000&after=${b.nextAfter}` : null));
      if (i > 0) streamed.push(performance.now() - t0);
    }

    const small = await app.inject({ method: 'POST', url: '/v1/sessions', headers: auth, payload: { deviceId, name: 'Small', requestIds: ids.slice(0, 10) } });
    const smallId = (small.json() as { id: string }).id;
    for (const id of [sessionId, smallId]) {
      await app.inject({ method: 'PUT', url: `/v1/sessions/${id}`, headers: auth, payload: { isShared: true } });
    }
    const shareUrl = await app.shareServer.listen({ port: 0, host: '127.0.0.1' });
    const dataUrl = (id: string) => `${shareUrl}/shared-sessions/${id}/data.json`;

    await download(dataUrl(smallId));
    const smallFirst = median(await Promise.all([0, 1, 2].map(() => download(dataUrl(smallId)))).then((r) => r.map((x) => x.firstByteMs)));

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    // What the server holds while streaming (after a collection, so garbage not yet collected
    // does not count), every 4 MB of the download; timed downloads run without the sampler.
    let peak = heapBefore;
    await download(dataUrl(sessionId), () => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    });
    const big: Array<{ firstByteMs: number; totalMs: number; bytes: number }> = [];
    for (let i = 0; i < RUNS; i++) big.push(await download(dataUrl(sessionId)));
    const docMb = big[0]!.bytes / 1024 / 1024;
    const peakMb = (peak - heapBefore) / 1024 / 1024;

    return [
      result({
        name: 'sessions: save a 100,000-item session (POST /v1/sessions, SQLite)', value: median(save), unit: 'ms',
        baseline: 'bare INSERT ... SELECT of the same rows', baselineValue: median(bare), goal: '≤2,000 ms',
      }),
      result({
        name: 'sessions: open a 100,000-item session (all item pages, server side)', value: median(opened), unit: 'ms',
        baseline: 'the same rows as the live list loads them (GET /v1/requests pages)', baselineValue: median(live), goal: '≈1× baseline',
      }),
      result({
        name: 'sessions: 100,000-item session, first page of 200 items (server side)', value: median(firstPage), unit: 'ms',
        baseline: null, baselineValue: null, goal: '≤300 ms first rows (server + page)', notes: `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
      }),
      result({
        name: 'sessions: 100,000-item session as the page streams it (200, then pages of 5,000)', value: median(streamed), unit: 'ms',
        baseline: 'the live list\'s history load of the same rows', baselineValue: median(live), goal: '≤1.2× baseline',
      }),
      result({
        name: 'sessions: data.json of 100,000 items, first byte', value: median(big.map((b) => b.firstByteMs)), unit: 'ms',
        baseline: 'first byte of a 10-item session', baselineValue: smallFirst, goal: '≤200 ms',
      }),
      result({
        name: 'sessions: data.json of 100,000 items, whole download', value: median(big.map((b) => b.totalMs)), unit: 'ms',
        baseline: null, baselineValue: null, notes: `${docMb.toFixed(1)} MB`,
      }),
      result({
        name: 'sessions: server live heap growth while streaming data.json', value: Math.max(0.01, peakMb), unit: 'MB',
        baseline: 'size of the document (an answer built in memory)', baselineValue: docMb, goal: 'bounded (far below the document)',
      }),
    ];
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
