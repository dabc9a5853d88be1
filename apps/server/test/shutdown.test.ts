import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, engine, GOOD_PASSWORD, uniqueEmail } from './helpers';
import { SERVER_MAIN, spawnNodeProcess, waitForOk, type NodeProcess } from './support/server-process';

/** Sends headers and the first part of a JSON body; the rest goes when `finish()` is called. */
function slowPost(url: string, body: string) {
  const { hostname, port, pathname, search } = new URL(url);
  const cut = Math.floor(body.length / 2);
  let finish = () => {};
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request({
      hostname, port, path: pathname + search, method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.write(body.slice(0, cut));
    finish = () => req.end(body.slice(cut));
  });
  return { response, finish: () => finish() };
}

// The graceful-shutdown contract is about the process and its SQLite file; PostgreSQL durability is the server's.
describe.skipIf(engine !== 'sqlite')('graceful shutdown of the real server process [sqlite]', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-shutdown-'));
  let server: NodeProcess | undefined;
  afterAll(() => {
    server?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM finishes the in-flight request, exits 0 and leaves a consistent database', { timeout: 90_000 }, async () => {
    server = spawnNodeProcess(SERVER_MAIN, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '' });
    const url = await server.url;
    await waitForOk(`${url}/healthz`);

    const before = uniqueEmail('before-shutdown');
    expect((await apiClient(url).post('/v1/auth/signup', { email: before, password: GOOD_PASSWORD })).status).toBe(200);

    // A sign-up whose body is still on its way when the signal arrives.
    const inFlight = uniqueEmail('in-flight');
    const slow = slowPost(`${url}/v1/auth/signup?in-flight=1`, JSON.stringify({ email: inFlight, password: GOOD_PASSWORD }));
    await server.waitForLine((l) => l.msg === 'incoming request' && String((l.req as { url?: string } | undefined)?.url).includes('in-flight=1'));
    server.child.kill('SIGTERM');
    await server.waitForLine((l) => l.msg === 'SIGTERM received, shutting down');

    slow.finish();
    const res = await slow.response;
    expect(res.status).toBe(200);
    expect(res.body.profile.email).toBe(inFlight);

    // New callers are turned away while closing (refused, or 503 on a connection that was already open).
    const late = await fetch(`${url}/healthz`).then((r) => r.status, () => 'refused');
    expect(['refused', 503]).toContain(late);

    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(server.lines.some((l) => l.level === 50 || l.level === 60), server.output()).toBe(false);

    const db = new SQLite(path.join(dataDir, 'spyglass.db'), { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const emails = db.prepare('select email from users order by created_at').all().map((r) => (r as { email: string }).email);
      expect(emails).toEqual([before, inFlight]);
      expect((db.prepare('select count(*) as n from auth_tokens').get() as { n: number }).n).toBe(2);
    } finally {
      db.close();
    }
    // Closing the database checkpointed the write-ahead log into the main file.
    const wal = path.join(dataDir, 'spyglass.db-wal');
    expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
  });
});
