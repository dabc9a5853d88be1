import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeviceItem } from '@spyglass/protocol';
import { openDatabase } from '../src/db/database';
import { TEST_DATABASE_URL } from './global-setup';
import { SERVER_V8_FLAGS } from '../../../scripts/server-v8-flags.mjs';
import { freePort } from './support/server-process';
import { describeApi, engine, signUp } from './helpers';
import { TestDevice, itemId, logItem } from './device-protocol-client';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The real server entry point in its own process, so that it can be killed for real. */
async function spawnServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...SERVER_V8_FLAGS, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), SHARE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { proc, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error('server did not start');
}

describeApi('ingest survives SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-crash-'));
  const dbName = `sg_crash_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const databaseUrl = engine === 'postgres' ? TEST_DATABASE_URL.replace(/\/[^/]*$/, `/${dbName}`) : '';
  const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const procs: ChildProcess[] = [];

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    if (databaseUrl) await admin(`CREATE DATABASE "${dbName}"`);
  });
  afterAll(async () => {
    for (const proc of procs) if (proc.exitCode === null) proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  });

  it('loses no acknowledged item, and a resend after restart stores every item exactly once', async () => {
    const first = await spawnServer(env);
    procs.push(first.proc);
    const account = await signUp(first.url);
    const apiKey = account.profile.apiKey as string;
    const deviceId = itemId('crash');

    const frames: DeviceItem[][] = Array.from({ length: 300 }, (_, f) => Array.from({ length: 20 }, (_, i) => logItem(`frame ${f} item ${i}`)));
    const { client } = await TestDevice.online(first.url, apiKey, deviceId);
    const acked = new Set<number>();
    const exited = new Promise((resolve) => first.proc.once('exit', resolve));
    // Stream with up to 20 frames unacknowledged, and kill the server once 40 are acked: frames are
    // then in flight (received, maybe committed, not acked) and others not yet sent.
    await new Promise<void>((resolve) => {
      let sent = 0;
      const pump = () => {
        while (sent < frames.length && sent - acked.size < 20) client.sendItems(sent, frames[sent++]!);
      };
      client.ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type !== 'ack') return;
        acked.add(frame.seq);
        if (first.proc.killed) return;
        if (acked.size >= 40) {
          first.proc.kill('SIGKILL');
          resolve();
        } else {
          pump();
        }
      });
      pump();
    });
    await exited;
    await client.closed;
    expect(acked.size).toBeGreaterThan(0);
    expect(acked.size).toBeLessThan(frames.length);

    // Every acknowledged item is on disk, straight after the crash.
    const handle = await openDatabase({ databaseUrl: databaseUrl || null, dataDir });
    const storedIds = new Set((await handle.db.selectFrom('items').select('id').where('device_id', '=', deviceId).execute()).map((r) => r.id));
    await handle.close();
    const ackedIds = [...acked].flatMap((seq) => frames[seq]!.map((i) => i.id));
    expect(ackedIds.filter((id) => !storedIds.has(id))).toEqual([]);

    // The device reconnects to the restarted server and resends everything it has no ack for.
    const second = await spawnServer(env);
    procs.push(second.proc);
    const { client: again } = await TestDevice.online(second.url, apiKey, deviceId);
    const unacked = frames.map((items, seq) => ({ items, seq })).filter(({ seq }) => !acked.has(seq));
    unacked.forEach(({ items }, i) => again.sendItems(i, items));
    for (let i = 0; i < unacked.length; i++) expect(await again.ack(i)).toEqual({ type: 'ack', seq: i });
    await again.close();
    second.proc.kill('SIGTERM');
    await new Promise((resolve) => second.proc.once('exit', resolve));

    const check = await openDatabase({ databaseUrl: databaseUrl || null, dataDir });
    const rows = await check.db.selectFrom('items').select(['id', 'num']).where('device_id', '=', deviceId).execute();
    await check.close();
    const total = frames.flat().length;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(frames.flat().map((i) => i.id)));
    // Display numbers stay unique: the resend did not hand out a second number to any item.
    expect(new Set(rows.map((r) => Number(r.num))).size).toBe(total);
  }, 120_000);
});
