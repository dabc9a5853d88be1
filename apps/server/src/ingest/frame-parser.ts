import { Worker } from 'node:worker_threads';

/**
 * Plain JavaScript on purpose: the worker runs outside the TypeScript loader. It answers the
 * parsed value, or the parse error's message.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, bytes }) => {
  try {
    parentPort.postMessage({ id, value: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message) });
  }
});
`;

export type ParsedFrame = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * JSON.parse of a multi-megabyte frame takes tens of milliseconds, during which every other
 * device and viewer would wait. Large frames are parsed on a worker thread instead; what comes
 * back is a structured clone, whose cost is mostly copying the (large) strings.
 */
export class FrameParser {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, (result: ParsedFrame) => void>();

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ id, value, error }: { id: number; value?: unknown; error?: string }) => {
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(error === undefined ? { ok: true, value } : { ok: false, error });
    });
    // A dead worker fails what it held and is replaced on the next frame.
    const fail = (message: string) => {
      if (this.worker === worker) this.worker = null;
      for (const resolve of this.pending.values()) resolve({ ok: false, error: message });
      this.pending.clear();
    };
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', () => fail('The frame parser stopped'));
    return worker;
  }

  parse(bytes: Buffer): Promise<ParsedFrame> {
    this.worker ??= this.start();
    const id = this.nextId++;
    // Copied so that the transfer cannot detach a buffer ws still uses (it pools small ones).
    const copy = new Uint8Array(bytes);
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker!.postMessage({ id, bytes: copy }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
