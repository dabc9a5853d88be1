import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations';
import { OwnSchemaPostgresDialect } from './own-schema-introspector';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  /** The raw SQLite connection, for the ingest hot path's prepared statements. */
  sqlite: SQLite.Database | null;
  close(): Promise<void>;
}

// int8 columns hold epoch milliseconds, which fit a double exactly until the year 287,396.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  pgSchema?: string;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    if (options.pgSchema) {
      const client = await pool.connect();
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.pgSchema}"`);
      } finally {
        client.release();
      }
    }
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    return { db, engine: 'postgres', sqlite: null, close: () => db.destroy() };
  }

  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, 'spyglass.db'));
  // WAL lets readers run during ingest writes; NORMAL sync is durable across process crashes
  // (only an OS crash can lose the last commits), which matches the ack guarantee we give devices.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', sqlite, close: () => db.destroy() };
}

/**
 * `pgSchema` must be given when the connection uses a private schema: Kysely otherwise looks for
 * its migration tables in every schema and trips over those of other test runs.
 */
export async function migrateToLatest(db: Db, pgSchema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(pgSchema ? { migrationTableSchema: pgSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Booleans are stored as 0/1 on both engines. */
export const bool = (v: boolean): number => (v ? 1 : 0);
export const isTrue = (v: number | null | undefined): boolean => v === 1;
