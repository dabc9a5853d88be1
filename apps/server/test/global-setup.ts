import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAvailable: boolean;
  }
}

/**
 * The PostgreSQL suite needs a reachable server. Locally it is skipped with a loud message when
 * there is none; under CI=true a missing database fails the run instead of silently passing.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (process.env.SPYGLASS_TEST_ENGINE !== 'postgres' && project.name !== 'api-postgres') {
    project.provide('postgresAvailable', false);
    return;
  }
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('postgresAvailable', true);
    console.log(`\n[api-postgres] PostgreSQL suite runs against ${TEST_DATABASE_URL.replace(/:[^:@/]+@/, ':***@')}\n`);
  } catch (err) {
    const message = `PostgreSQL is unreachable at ${TEST_DATABASE_URL} (${(err as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${message}: the PostgreSQL suite is required under CI=true`, { cause: err });
    console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING the PostgreSQL API suite: ${message}\n!! Set TEST_DATABASE_URL to run it.\n${'!'.repeat(78)}\n`);
    project.provide('postgresAvailable', false);
  } finally {
    await client.end().catch(() => {});
  }
}
