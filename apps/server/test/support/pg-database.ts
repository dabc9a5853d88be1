import crypto from 'node:crypto';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../global-setup';

export interface TestDatabase {
  /** DATABASE_URL of the new database, for server processes. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on the test server, for server processes that share one (several
 * nodes): a process takes no private schema, so it gets a database of its own.
 */
export async function createTestDatabase(prefix = 'spyglass_nodes'): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
