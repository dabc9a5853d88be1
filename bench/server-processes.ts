/**
 * The server (or a suite's baseline) started as its own process for a benchmark, each with a data
 * directory of its own and the embedded defaults unless the suite says otherwise.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER } from '@spyglass/protocol';
import { spawnNodeProcess, waitForOk, type NodeProcess } from '../apps/server/test/support/server-process';

export interface BenchServer {
  proc: NodeProcess;
  url: string;
  dataDir: string;
}

/** Ingest budgets out of the way, for suites that measure throughput rather than the limits. */
export const UNLIMITED_INGEST = {
  INGEST_DEVICE_ITEMS_PER_S: '1000000000', INGEST_ACCOUNT_ITEMS_PER_S: '1000000000',
  INGEST_DEVICE_BYTES_PER_S: '1000000000000', INGEST_ACCOUNT_BYTES_PER_S: '1000000000000',
};

/** Starts `script` (the server or a baseline, through tsx) on a free port; answers once it listens. */
export async function startBenchServer(script: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-bench-'));
  // LOG_LEVEL info: the URL comes from the "Server listening at" line; the measured work logs nothing.
  const proc = spawnNodeProcess(script, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info', ...env });
  const url = await proc.url.catch(() => {
    throw new Error(proc.output());
  });
  return { proc, url, dataDir };
}

export async function stopBenchServer(s: BenchServer): Promise<void> {
  s.proc.child.kill('SIGTERM');
  await s.proc.exited;
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

export interface BenchAccount {
  token: string;
  apiKey: string;
  id: string;
}

/** A new account on a running server, once it answers /healthz. */
export async function signUpBenchAccount(url: string): Promise<BenchAccount> {
  await waitForOk(`${url}/healthz`);
  const res = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD },
    body: JSON.stringify({ email: `bench-${crypto.randomUUID()}@example.com`, password: 'correct-horse-42!', timezone: 'UTC' }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; profile: { apiKey: string; id: string } };
  return { token: body.token, apiKey: body.profile.apiKey, id: body.profile.id };
}

/** A process's resident memory, from /proc (Linux), in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
