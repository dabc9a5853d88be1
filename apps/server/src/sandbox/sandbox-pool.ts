import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HandlerOutcome, HandlerRequest } from '@spyglass/protocol/sandbox';

/**
 * Dynamic handlers are other users' code: on the server they never run on the main thread. One
 * worker thread runs them one after another in the QuickJS sandbox (its own time and memory
 * limits), and a wall-clock guard terminates the worker when a job outlives them anyway — QuickJS
 * checks its interrupt only between bytecodes, so a single huge native call (`'x'.repeat(1e9)`)
 * could otherwise hold it for seconds. The main thread keeps serving either way.
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
  /** A job not answered this long after it started kills the worker. */
  hardTimeoutMs: number;
  /** Jobs waiting beyond this many are refused at once. */
  maxQueued: number;
}

export const DEFAULT_POOL_OPTIONS: SandboxPoolOptions = { timeoutMs: 50, memoryBytes: 16 * 1024 * 1024, hardTimeoutMs: 1000, maxQueued: 100 };

type Job =
  | { kind: 'run'; code: string; request: HandlerRequest }
  | { kind: 'check'; code: string };

interface Pending {
  id: number;
  job: Job;
  resolve(value: unknown): void;
  timer?: NodeJS.Timeout;
}

export class SandboxBusyError extends Error {}

export class SandboxPool {
  private worker: Worker | null = null;
  /** Workers need a while to start: the first job's clock starts when the worker is ready. */
  private ready: Promise<void> | null = null;
  private readonly queue: Pending[] = [];
  private running: Pending | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SandboxPoolOptions = DEFAULT_POOL_OPTIONS) {}

  /** Runs `code`'s handler on `request`; resolves with its outcome, never rejects but when busy or closed. */
  run(code: string, request: HandlerRequest): Promise<HandlerOutcome> {
    return this.enqueue({ kind: 'run', code, request }) as Promise<HandlerOutcome>;
  }

  /** The save check: undefined when the code loads and defines a handler, else the error excerpt. */
  async check(code: string): Promise<string | undefined> {
    const result = (await this.enqueue({ kind: 'check', code })) as { error?: string };
    return result.error ?? undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    for (const pending of this.queue.splice(0)) pending.resolve(stoppedOutcome(pending.job, 'Error: the server is shutting down'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.resolve(stoppedOutcome(this.running.job, 'Error: the server is shutting down'));
      this.running = null;
    }
    if (worker) await worker.terminate();
  }

  private enqueue(job: Job): Promise<unknown> {
    if (this.closed) return Promise.reject(new SandboxBusyError('The sandbox is closed'));
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new SandboxBusyError('Too many handlers are waiting to run, please try again later'));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, job, resolve });
      this.pump();
    });
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sandboxModule: SANDBOX_MODULE } });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise((resolve) => {
      // The first answer (to a no-op check) says the loader and the engine are up.
      const onFirst = () => {
        worker.off('message', onFirst);
        resolve();
      };
      worker.on('message', onFirst);
      worker.postMessage({ id: 0, kind: 'check', code: 'function handler() {}' });
    });
    worker.on('message', (message: { id: number; result?: unknown; failure?: string }) => {
      const running = this.running;
      if (!running || message.id !== running.id) return;
      clearTimeout(running.timer);
      this.running = null;
      running.resolve(message.failure !== undefined ? stoppedOutcome(running.job, `Error: ${message.failure}`) : message.result);
      this.pump();
    });
    const lost = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.ready = null;
      const running = this.running;
      this.running = null;
      if (running) {
        clearTimeout(running.timer);
        running.resolve(stoppedOutcome(running.job, 'Error: the sandbox stopped unexpectedly'));
      }
      this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    if (!this.worker) this.start();
    const worker = this.worker!;
    this.running = next;
    const limits = { timeoutMs: this.options.timeoutMs, memoryBytes: this.options.memoryBytes };
    void this.ready!.then(() => {
      if (this.running !== next || this.worker !== worker) return;
      next.timer = setTimeout(() => {
        if (this.running !== next) return;
        this.running = null;
        this.worker = null;
        this.ready = null;
        next.resolve(stoppedOutcome(next.job, `Error: the handler ran longer than ${this.options.hardTimeoutMs} ms and was stopped`));
        void worker.terminate();
        this.pump();
      }, this.options.hardTimeoutMs);
      worker.postMessage({ id: next.id, ...next.job, limits });
    });
  }
}

function stoppedOutcome(job: Job, error: string): unknown {
  return job.kind === 'check' ? { error } : ({ ok: false, error, logs: [] } satisfies HandlerOutcome);
}
