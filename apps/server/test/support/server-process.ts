import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_V8_FLAGS } from '../../../../scripts/server-v8-flags.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const SERVER_MAIN = 'apps/server/src/main.ts';

/** One pino line of the child's stdout. */
export type LogLine = Record<string, unknown> & { msg?: string };

/**
 * A Node process started the way `npm start` starts the server (TypeScript through tsx), whose
 * JSON log lines tests can wait for: "Server listening at ...", "incoming request", shutdown.
 */
export interface NodeProcess {
  child: ChildProcess;
  /** Base URL from Fastify's "Server listening at" line. */
  url: Promise<string>;
  lines: LogLine[];
  /** Resolves with the first log line (already seen or to come) that matches. */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  kill(): void;
}

export function spawnNodeProcess(script: string, env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, [...SERVER_V8_FLAGS, '--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let output = '';
  const waiters = new Set<() => void>();
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        lines.push({ msg: part });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });

  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 60_000) => new Promise<LogLine>((resolve, reject) => {
    const check = () => {
      const line = lines.find(match);
      if (line) {
        done();
        resolve(line);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        done();
        reject(new Error(`process exited before the expected log line:\n${output}`));
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for a log line:\n${output}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(check);
    };
    waiters.add(check);
    check();
  });

  const url = waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at http'))
    .then((l) => /Server listening at (http:\/\/\S+)/.exec(l.msg!)![1]!);

  return {
    child,
    url,
    lines,
    waitForLine,
    exited,
    output: () => output,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Polls `url` until it answers 200 (a listening socket is not yet a ready server). */
export async function waitForOk(url: string, timeoutMs = 60_000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not accepting connections yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** A port on the loopback that nothing listens on (another process may take it before it is used). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
