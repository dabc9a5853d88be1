/**
 * Issue 3, acceptance 4: the server's start-to-ready time and its authenticated GET /v1/user
 * throughput, each against a bare Fastify app started the same way, both on SQLite.
 */
import autocannon from 'autocannon';
import { median, result, type BenchResult } from '../lib';
import { SERVER_MAIN, waitForOk } from '../../apps/server/test/support/server-process';
import { startBenchServer, stopBenchServer, type BenchServer } from '../server-processes';

const BARE = 'bench/fixtures/bare-fastify.ts';
const START_RUNS = 5;
const WARMUP_SECONDS = 2;
const LOAD_ROUNDS = 4;
const ROUND_SECONDS = 3;
const CONNECTIONS = 10;

/** The server or its baseline, and the milliseconds from spawn until /healthz answered 200. */
async function start(script: string): Promise<{ server: BenchServer; readyMs: number }> {
  const t0 = performance.now();
  const server = await startBenchServer(script, { SMTP_URL: '' });
  await waitForOk(`${server.url}/healthz`, 60_000, 2);
  return { server, readyMs: performance.now() - t0 };
}

/** Requests per second of one autocannon run against GET /v1/user. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const res = await autocannon({ url: `${url}/v1/user`, connections: CONNECTIONS, duration: seconds, headers });
  if (res.non2xx > 0 || res.errors > 0) throw new Error(`${url}: ${res.non2xx} non-2xx answers, ${res.errors} errors`);
  return res.requests.average;
}

export default async function serverSuite(): Promise<BenchResult[]> {
  // Alternate the two so that machine noise hits both alike; every server start runs the migrations on a fresh file.
  const server: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    for (const [script, times] of [[SERVER_MAIN, server], [BARE, bare]] as const) {
      const { server: s, readyMs } = await start(script);
      times.push(readyMs);
      await stopBenchServer(s);
    }
  }

  // Both servers run side by side and are loaded in turns, so that the other work on the machine
  // weighs on both alike; each figure is the mean over the rounds.
  const real = (await start(SERVER_MAIN)).server;
  const baseline = (await start(BARE)).server;
  const userRps: number[] = [];
  const bareRps: number[] = [];
  try {
    const signUp = await fetch(`${real.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-1!' }),
    });
    const { token } = (await signUp.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}`, 'x-client-version': '1.0.83', 'x-client-build': '20250928T103312.799' };
    await load(real.url, auth, WARMUP_SECONDS);
    await load(baseline.url, auth, WARMUP_SECONDS);
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      userRps.push(await load(real.url, auth, ROUND_SECONDS));
      bareRps.push(await load(baseline.url, auth, ROUND_SECONDS));
    }
  } finally {
    await stopBenchServer(real);
    await stopBenchServer(baseline);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  return [
    result({
      name: 'server start-to-ready (spawn → /healthz 200, fresh SQLite)',
      value: median(server), unit: 'ms',
      baseline: 'bare Fastify app started the same way', baselineValue: median(bare),
      notes: `median of ${START_RUNS}; node --import tsx; migrations included`,
    }),
    result({
      name: 'authenticated GET /v1/user throughput (SQLite)',
      value: mean(userRps), unit: 'req/s',
      baseline: 'bare Fastify route with the same JSON', baselineValue: mean(bareRps),
      goal: '≥0.5× baseline',
      notes: `autocannon, ${CONNECTIONS} connections, ${LOAD_ROUNDS} alternating rounds of ${ROUND_SECONDS} s after a warm-up; both log at info`,
    }),
  ];
}
