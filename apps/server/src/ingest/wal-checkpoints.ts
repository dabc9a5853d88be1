import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * Plain JavaScript on purpose: the worker runs outside the TypeScript loader. Its own connection
 * copies the WAL back into the database file (a PASSIVE checkpoint takes no lock that writers or
 * readers wait for), and says how it went when asked.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let last = { busy: 0, log: 0, checkpointed: 0 };
const run = () => {
  try {
    last = checkpoint.get();
  } catch {
    // a checkpoint that cannot run now runs at the next tick
  }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'now') {
    run();
    parentPort.postMessage(last);
  } else if (message === 'stop') {
    clearInterval(timer);
    run();
    db.close();
    parentPort.close();
  }
});
`;

/** What a checkpoint reported: WAL frames in all, and how many are in the database file. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses the WAL's threshold, on the thread that commits: for the ingest that was the event
 * loop, and a checkpoint of a few thousand pages stalled every device and viewer for tens to
 * hundreds of milliseconds. The main connection's automatic checkpoints are turned off and a
 * worker thread with its own connection checkpoints every `intervalMs` instead. Commits (and
 * the acks after them) are unchanged: a checkpoint only moves committed pages.
 */
export class WalCheckpoints {
  private readonly worker: Worker;

  constructor(sqlite: SQLite.Database, intervalMs = 200) {
    sqlite.pragma('wal_autocheckpoint = 0');
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: sqlite.name, intervalMs } });
    this.worker.unref();
  }

  /** Runs a checkpoint now and answers what it did. */
  checkpoint(): Promise<CheckpointResult> {
    return new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.postMessage('now');
    });
  }

  /** A last checkpoint, then the worker's connection closes. */
  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    await exited;
  }
}
