import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER } from '@spyglass/protocol';
import { buildApp, type BuildOptions } from '../src/app';
import type { App } from '../src/context';
import { TEST_DATABASE_URL } from './global-setup';

export const engine = (process.env.SPYGLASS_TEST_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres';

/** `describe` for a suite that runs once per storage engine (the api-sqlite and api-postgres projects). */
export function describeApi(name: string, fn: () => void): void {
  const skip = engine === 'postgres' && !inject('postgresAvailable');
  describe.skipIf(skip)(`${name} [${engine}]`, fn);
}

export interface TestServer {
  app: App;
  /** Base URL of the listening server, e.g. http://127.0.0.1:34567 */
  url: string;
  close(): Promise<void>;
}

/**
 * A real server on a random port with its own database: a fresh SQLite file, or a private
 * PostgreSQL schema that is dropped on close, so test files and runs never collide.
 */
export async function startTestServer(options: BuildOptions = {}): Promise<TestServer> {
  const id = `t${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-test-'));
  const usePg = engine === 'postgres';
  const removeStorage = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (usePg) await dropSchema(`sg_${id}`);
  };
  let app: App | undefined;
  try {
    app = await buildApp({
      logger: false,
      ...options,
      config: {
        dataDir,
        databaseUrl: usePg ? TEST_DATABASE_URL : null,
        authRateLimit: { perIp: 100_000, perEmail: 100_000, windowS: 60 },
        // Accounts start without the sample device unless a test asks for it (sample-device.test.ts).
        sampleDevice: false,
        ...options.config,
      },
      database: usePg ? { pgSchema: `sg_${id}`, ...options.database } : options.database,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    // A failed start leaves nothing behind, so the error reported is the start's own.
    await app?.close().catch(() => {});
    await removeStorage().catch(() => {});
    throw err;
  }
  const started = app;
  const address = started.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app: started,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await started.close();
      await removeStorage();
    },
  };
}

export interface TwoNodes {
  nodeA: TestServer;
  nodeB: TestServer;
  /** The options that put another node (startTestServer) on the same database. */
  sameDatabase: Pick<BuildOptions, 'config' | 'database'>;
  /** Stops both nodes, then removes their shared database. */
  close(): Promise<void>;
}

/**
 * Two server nodes on one database (one SQLite file in a shared data directory, or one PostgreSQL
 * schema), as two processes behind a load balancer; `options` (a Redis URL, limits, a clock) go to both.
 */
export async function startTwoNodes(options: BuildOptions = {}): Promise<TwoNodes> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-nodes-'));
  const schema = `sg_nodes_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const sameDatabase = { config: { dataDir }, database: { pgSchema: schema } };
  const shared: BuildOptions = { ...options, config: { ...options.config, ...sameDatabase.config }, database: { ...options.database, ...sameDatabase.database } };
  const started: TestServer[] = [];
  const close = async () => {
    for (const node of started) await node.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'postgres') await dropSchema(schema);
  };
  try {
    started.push(await startTestServer(shared));
    started.push(await startTestServer(shared));
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
  return { nodeA: started[0]!, nodeB: started[1]!, sameDatabase, close };
}

/**
 * Registers beforeAll/afterAll hooks that give the suite one server (startTestServer with
 * `options`), closed after its last test. Read its fields inside tests and hooks.
 */
export function useTestServer(options: BuildOptions = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(() => server?.close());
  return startedLater(() => server, 'the test server');
}

/**
 * `startTwoNodes` for the suite, in its beforeAll hook (unless `skip`: a service it needs is
 * missing), stopped after its last test. `options` may be a function for what only earlier hooks
 * know (an SMTP receiver's address).
 */
export function useTwoNodes(options: BuildOptions | (() => BuildOptions), { skip = false } = {}): { nodeA: TestServer; nodeB: TestServer } {
  let nodes: TwoNodes | undefined;
  beforeAll(async () => {
    if (!skip) nodes = await startTwoNodes(typeof options === 'function' ? options() : options);
  });
  afterAll(() => nodes?.close());
  return { nodeA: startedLater(() => nodes?.nodeA, 'node A'), nodeB: startedLater(() => nodes?.nodeB, 'node B') };
}

/** A server started by a hook, read when a test uses it. */
function startedLater(current: () => TestServer | undefined, what: string): TestServer {
  const started = (): TestServer => {
    const server = current();
    if (!server) throw new Error(`${what} is not started: use it inside a test or hook`);
    return server;
  };
  return {
    get app() { return started().app; },
    get url() { return started().url; },
    close: () => started().close(),
  };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A tiny typed-enough client speaking the web client's conventions (spec 000 §7.1). */
export function apiClient(baseUrl: string, token?: string) {
  const call = async <T = any>(method: string, url: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = {
      [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
      [CLIENT_BUILD_HEADER]: CLIENT_BUILD,
      ...extraHeaders,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(baseUrl + url, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // non-JSON answers (HTML, files) are returned as text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    /** Any method with a raw body (a string is sent as is, so tests can send malformed JSON). */
    call,
    get: <T = any>(url: string, headers?: Record<string, string>) => call<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', url, body ?? {}, headers),
    put: <T = any>(url: string, body?: unknown) => call<T>('PUT', url, body ?? {}),
    delete: <T = any>(url: string, body?: unknown) => call<T>('DELETE', url, body),
    withToken: (t: string) => apiClient(baseUrl, t),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${Date.now()}-${counter++}@example.com`;
export const GOOD_PASSWORD = 'correct-horse-42!';

/** Signs up a fresh account and answers a client holding its token. */
export async function signUp(baseUrl: string, email = uniqueEmail()) {
  const res = await apiClient(baseUrl).post('/v1/auth/signup', { email, password: GOOD_PASSWORD, timezone: 'Europe/Berlin' });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, token: res.body.token as string, profile: res.body.profile, api: apiClient(baseUrl, res.body.token) };
}
