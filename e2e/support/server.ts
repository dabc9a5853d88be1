import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/db/database';
import { spawnNode, type Child } from './process';
import { SERVER_V8_FLAGS } from '../../scripts/server-v8-flags.mjs';
import { freePort } from '../../apps/server/test/support/server-process';

export interface ServerOptions {
  /** Where the server sends mail (see apps/server/test/support/smtp-receiver.ts); unset: mails go to the server log. */
  smtpUrl?: string;
  /** Any further environment (DATABASE_URL, DEMO_MODE, REDIS_URL...). */
  env?: Record<string, string | undefined>;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234; also the server's PUBLIC_URL, so mail links point here. */
  url: string;
  port: number;
  /** The public share host (SHARE_PORT / SHARE_URL), e.g. http://127.0.0.1:41235. */
  shareUrl: string;
  dataDir: string;
  /** The server's PostgreSQL URL, or null for its SQLite file under dataDir. */
  databaseUrl: string | null;
  child: Child;
  /** Graceful stop (SIGTERM), then the data directory is removed. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/**
 * The real server as `npm start` runs it (apps/server/src/main.ts in its own process), serving the
 * built web client, with a fresh SQLite file in a temporary DATA_DIR.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // The port must be known before start: PUBLIC_URL (the base of mail links) contains it. A port
  // taken between probing and listening is retried with another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let sharePort = await freePort();
    while (sharePort === port) sharePort = await freePort();
    const shareUrl = `http://127.0.0.1:${sharePort}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-e2e-'));
    const databaseUrl = options.env?.DATABASE_URL ?? null;
    const child = spawnNode({
      name: 'server',
      args: [...SERVER_V8_FLAGS, 'apps/server/src/main.ts'],
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        PUBLIC_URL: url,
        SHARE_PORT: String(sharePort),
        SHARE_URL: shareUrl,
        SMTP_URL: options.smtpUrl,
        LOG_LEVEL: 'info',
        // One browser signs in and out many times from 127.0.0.1 within a minute.
        AUTH_RATE_LIMIT_PER_IP: '10000',
        AUTH_RATE_LIMIT_PER_EMAIL: '10000',
        // Accounts start without the sample device unless a test asks for it (e2e/sample-data.test.ts).
        SAMPLE_DEVICE: '0',
        ...options.env,
      },
    });
    const stop = async () => {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      await waitUntilReady(url, child);
      return { url, port, shareUrl, dataDir, databaseUrl, child, stop };
    } catch (error) {
      await stop();
      if (attempt < 3 && /EADDRINUSE/.test(child.output())) continue;
      throw new Error(`${(error as Error).message}\n--- server output ---\n${child.output()}`, { cause: error });
    }
  }
}

async function waitUntilReady(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  void child.exited().then(() => { exited = true; });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server exited with code ${child.process.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * A second connection to the running server's database, for the few facts no screen can set up
 * (granting the admin role). Close it when done.
 */
export function openServerDatabase(server: RunningServer): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
}
