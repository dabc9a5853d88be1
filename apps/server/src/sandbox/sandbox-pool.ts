import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HandlerOutcome, HandlerRequest } from '@spyglass/protocol/sandbox';

/**
 * Dynamic handlers are other users' code: on the server they never run on the main thread. A
 * small pool of worker threads runs them in the QuickJS sandbox (its own time and memory limits),
 * and a wall-clock guard terminates a worker whose job outlives them anyway — QuickJS checks its
 * interrupt only between bytecodes, so a single huge native call (`'x'.repeat(1e9)`) could
 * otherwise hold it for seconds. The main thread keeps serving either way.
 *
 * One account cannot starve the others: it runs at most `perAccountConcurrency` jobs at once and
 * may have `perAccountQueue` waiting (more are refused, 429), and a free worker takes the next job
 * of the account served least recently (round robin over the accounts with waiting jobs, where an
 * account that just arrived goes first), so another account's trivial job waits for the jobs
 * already running, each cut at its limit, and not for anyone's queue.
 */

const SANDBOX_MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../packages/protocol/src/mocks/sandbox.ts');

// Plain JavaScript: the worker registers the TypeScript loader itself, so it starts the same way
// under `node --import tsx` and under the test runner.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = import('tsx/esm/api').then((api) => { api.register(); return import(workerData.sandboxModule); })
  .then(async (sandbox) => { await sandbox.loadSandboxEngine(); return sandbox; });
parentPort.on('message', async (job) => {
  try {
    const sandbox = await ready;
    const result = job.kind === 'check'
      ? { error: await sandbox.checkHandlerCode(job.code, job.limits) }
      : await sandbox.runHandlerOnce(job.code, job.request, job.limits);
    parentPort.postMessage({ id: job.id, result });
  } catch (err) {
    parentPort.postMessage({ id: job.id, failure: String(err && err.message || err) });
  }
});
`;

export interface SandboxPoolOptions {
  /** The sandbox's own time limit per run. */
  timeoutMs: number;
  memoryBytes: number;
  /** A job not answered this long after it started kills its worker. */
  hardTimeoutMs: number;
  /** Worker threads. */
  workers: number;
  /** Jobs of one account running at once. */
  perAccountConcurrency: number;
  /** Jobs of one account waiting; more are refused at once. */
  perAccountQueue: number;
  /** Jobs waiting in all; more are refused at once. */
  maxQueued: number;
}

export const DEFAULT_POOL_OPTIONS: SandboxPoolOptions = {
  timeoutMs: 50,
  memoryBytes: 16 * 1024 * 1024,
  hardTimeoutMs: 1000,
  workers: 2,
  perAccountConcurrency: 1,
  perAccountQueue: 8,
  maxQueued: 200,
};

type Job =
  | { kind: 'run'; code: string; request: HandlerRequest }
  | { kind: 'check'; code: string };

interface Pending {
  id: number;
  account: string;
  job: Job;
  resolve(value: unknown): void;
  timer?: NodeJS.Timeout;
}

/** One worker thread and the job it runs. */
interface Slot {
  worker: Worker | null;
  /** Workers need a while to start: a job's clock starts when its worker is ready. */
  ready: Promise<void> | null;
  running: Pending | null;
}

export class SandboxBusyError extends Error {}

const MAX_REMEMBERED_ACCOUNTS = 10_000;

export const ACCOUNT_BUSY_MESSAGE = 'Too many of your handlers are waiting to run, please try again in a moment';
export const POOL_BUSY_MESSAGE = 'Too many handlers are waiting to run, please try again later';

export class SandboxPool {
  private readonly options: SandboxPoolOptions;
  private readonly slots: Slot[];
  /** Waiting jobs per account; an account is here only while it has some. */
  private readonly queues = new Map<string, Pending[]>();
  /** Accounts with waiting jobs, in the order they arrived. */
  private turn: string[] = [];
  /** Accounts by when a worker last took one of their jobs, least recent first (Map keeps insertion order). */
  private readonly served = new Map<string, number>();
  private serves = 0;
  private readonly runningPerAccount = new Map<string, number>();
  private queued = 0;
  private nextId = 1;
  private closed = false;

  constructor(options: Partial<SandboxPoolOptions> = {}) {
    this.options = { ...DEFAULT_POOL_OPTIONS, ...options };
    this.slots = Array.from({ length: this.options.workers }, () => ({ worker: null, ready: null, running: null }));
  }

  /** Runs `code`'s handler on `request` for `account`; resolves with its outcome, rejects only when busy or closed. */
  run(account: string, code: string, request: HandlerRequest): Promise<HandlerOutcome> {
    return this.enqueue(account, { kind: 'run', code, request }) as Promise<HandlerOutcome>;
  }

  /** The save check: undefined when the code loads and defines a handler, else the error excerpt. */
  async check(account: string, code: string): Promise<string | undefined> {
    const result = (await this.enqueue(account, { kind: 'check', code })) as { error?: string };
    return result.error ?? undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) {
      for (const pending of queue) pending.resolve(stoppedOutcome(pending.job, 'Error: the server is shutting down'));
    }
    this.queues.clear();
    this.turn = [];
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.resolve(stoppedOutcome(slot.running.job, 'Error: the server is shutting down'));
        slot.running = null;
      }
      if (slot.worker) workers.push(slot.worker);
      slot.worker = null;
    }
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private enqueue(account: string, job: Job): Promise<unknown> {
    if (this.closed) return Promise.reject(new SandboxBusyError('The sandbox is closed'));
    const queue = this.queues.get(account) ?? [];
    if (queue.length >= this.options.perAccountQueue) return Promise.reject(new SandboxBusyError(ACCOUNT_BUSY_MESSAGE));
    if (this.queued >= this.options.maxQueued) return Promise.reject(new SandboxBusyError(POOL_BUSY_MESSAGE));
    return new Promise((resolve) => {
      if (queue.length === 0) {
        this.queues.set(account, queue);
        this.turn.push(account);
      }
      queue.push({ id: this.nextId++, account, job, resolve });
      this.queued++;
      this.pump();
    });
  }

  /** The next job of the account below its concurrency that was served least recently, or undefined. */
  private takeNext(): Pending | undefined {
    let pick = -1;
    let pickServedAt = Infinity;
    for (let i = 0; i < this.turn.length; i++) {
      const account = this.turn[i]!;
      if ((this.runningPerAccount.get(account) ?? 0) >= this.options.perAccountConcurrency) continue;
      const servedAt = this.served.get(account) ?? -1;
      if (servedAt < pickServedAt) {
        pick = i;
        pickServedAt = servedAt;
      }
    }
    if (pick < 0) return undefined;
    const account = this.turn[pick]!;
    const queue = this.queues.get(account)!;
    const next = queue.shift()!;
    this.queued--;
    if (queue.length === 0) {
      this.turn.splice(pick, 1);
      this.queues.delete(account);
    }
    this.served.delete(account);
    this.served.set(account, this.serves++);
    // Forgetting the least recent accounts only lets them go first again.
    if (this.served.size > MAX_REMEMBERED_ACCOUNTS) this.served.delete(this.served.keys().next().value!);
    return next;
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.running) continue;
      const next = this.takeNext();
      if (!next) return;
      this.start(slot, next);
    }
  }

  private start(slot: Slot, next: Pending): void {
    if (!slot.worker) this.spawn(slot);
    const worker = slot.worker!;
    slot.running = next;
    this.runningPerAccount.set(next.account, (this.runningPerAccount.get(next.account) ?? 0) + 1);
    const limits = { timeoutMs: this.options.timeoutMs, memoryBytes: this.options.memoryBytes };
    void slot.ready!.then(() => {
      if (slot.running !== next || slot.worker !== worker) return;
      next.timer = setTimeout(() => {
        if (slot.running !== next) return;
        slot.worker = null;
        slot.ready = null;
        this.finish(slot, stoppedOutcome(next.job, `Error: the handler ran longer than ${this.options.hardTimeoutMs} ms and was stopped`));
        void worker.terminate();
      }, this.options.hardTimeoutMs);
      worker.postMessage({ id: next.id, ...next.job, limits });
    });
  }

  /** Answers the slot's job, frees the slot and starts what waits. */
  private finish(slot: Slot, result: unknown): void {
    const running = slot.running;
    if (!running) return;
    clearTimeout(running.timer);
    slot.running = null;
    const count = (this.runningPerAccount.get(running.account) ?? 1) - 1;
    if (count > 0) this.runningPerAccount.set(running.account, count);
    else this.runningPerAccount.delete(running.account);
    running.resolve(result);
    this.pump();
  }

  private spawn(slot: Slot): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sandboxModule: SANDBOX_MODULE } });
    worker.unref();
    slot.worker = worker;
    slot.ready = new Promise((resolve) => {
      // The first answer (to a no-op check) says the loader and the engine are up.
      const onFirst = () => {
        worker.off('message', onFirst);
        resolve();
      };
      worker.on('message', onFirst);
      worker.postMessage({ id: 0, kind: 'check', code: 'function handler() {}' });
    });
    worker.on('message', (message: { id: number; result?: unknown; failure?: string }) => {
      const running = slot.running;
      if (slot.worker !== worker || !running || message.id !== running.id) return;
      this.finish(slot, message.failure !== undefined ? stoppedOutcome(running.job, `Error: ${message.failure}`) : message.result);
    });
    const lost = () => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      slot.ready = null;
      if (slot.running) this.finish(slot, stoppedOutcome(slot.running.job, 'Error: the sandbox stopped unexpectedly'));
      else this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
  }
}

function stoppedOutcome(job: Job, error: string): unknown {
  return job.kind === 'check' ? { error } : ({ ok: false, error, logs: [] } satisfies HandlerOutcome);
}
