import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpoints } from './wal-checkpoints';

describe('WalCheckpoints', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes checkpoints away from the committing connection and does them on its own thread', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-wal-'));
    dirs.push(dir);
    const sqlite = new SQLite(path.join(dir, 'test.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table rows (id integer primary key, body blob)');
    // A long interval: the checkpoint below is the only one the worker runs.
    const checkpoints = new WalCheckpoints(sqlite, 60_000);
    const insert = sqlite.prepare('insert into rows (body) values (?)');
    const body = Buffer.alloc(4000, 7);
    // About 3,000 pages in 30 commits: with SQLite's automatic checkpoint (every 1,000 pages) a
    // commit would have checkpointed and the WAL restarted.
    for (let commit = 0; commit < 30; commit++) sqlite.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run(body);
    })();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    const result = await checkpoints.checkpoint();
    expect(result.log).toBeGreaterThan(2000);
    expect(result.checkpointed).toBe(result.log);
    await checkpoints.close();
    expect(sqlite.prepare('select count(*) from rows').pluck().get()).toBe(3000);
    sqlite.close();
  });
});
