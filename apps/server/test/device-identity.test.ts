import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CapturedItem, CommandFrame, Device, MockedRoute } from '@spyglass/protocol';
import { createSpyglass, type SpyglassClient } from '@spyglass/sdk';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import { migrationProvider } from '../src/db/migrations';
import { FileBlobStore } from '../src/blobs/file-blob-store';
import { deleteDevice } from '../src/repositories/devices.repository';
import { TEST_DATABASE_URL } from './global-setup';
import { describeApi, engine, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';

/** What the app under the SDK calls. */
function startBackend(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.end('real'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

describeApi('one phone, two accounts', () => {
  let server: TestServer;
  let backend: Awaited<ReturnType<typeof startBackend>>;
  const clients: SpyglassClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    backend = await startBackend();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await backend?.close();
    await server?.close();
  });

  /** The same install connecting with an account's key; records every command frame it receives. */
  async function install(apiKey: string, installId: string) {
    const commands: CommandFrame[] = [];
    let screenshots = 0;
    const client = createSpyglass({
      serverUrl: server.url, apiKey, installId,
      device: { platform: 'ios', name: 'Shared iPhone' },
      capture: { fetch: false, xhr: false, http: false },
      flushIntervalMs: 5,
      screenshotCapturer: () => {
        screenshots += 1;
        return { image: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]) };
      },
    });
    clients.push(client);
    client.on('command', (frame: CommandFrame) => commands.push(frame));
    await new Promise<void>((resolve, reject) => {
      client.on('welcome', () => resolve());
      client.on('error', (e) => e.fatal && reject(e));
    });
    return { client, commands, screenshots: () => screenshots };
  }

  /** The messages of the logs the app itself wrote (a ping also leaves a 'Pong' item). */
  const appLogs = async (api: ApiClient, deviceId: string) =>
    ((await api.get(`/v1/requests?deviceId=${encodeURIComponent(deviceId)}&limit=100`)).body.items as CapturedItem[])
      .flatMap((i) => (i.type === 'log' && /^(only|still)/.test(i.details.message) ? [i.details.message] : [])).sort();

  it('is a device in each account, with its own items, commands and mocks', async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const installId = `shared-${crypto.randomUUID()}`;
    const onA = await install(a.profile.apiKey, installId);
    const onB = await install(b.profile.apiKey, installId);
    expect(onA.client.deviceId).toBe(installId);
    expect(onB.client.deviceId).toBe(installId);

    for (const account of [a, b]) {
      const devices = (await account.api.get('/v1/devices')).body as Device[];
      expect(devices.map((d) => [d.id, d.online])).toEqual([[installId, true]]);
    }

    onA.client.log('only for A');
    onB.client.log('only for B');
    await Promise.all([onA.client.flush(), onB.client.flush()]);
    expect(await appLogs(a.api, installId)).toEqual(['only for A']);
    expect(await appLogs(b.api, installId)).toEqual(['only for B']);

    // Commands go to the connection made with the sender's key only.
    expect((await a.api.get(`/v1/devices/${installId}/take-screenshot`)).status).toBe(200);
    expect([onA.screenshots(), onB.screenshots()]).toEqual([1, 0]);
    expect((await b.api.get(`/v1/devices/${installId}/send-ping`)).status).toBe(200);
    expect(onA.commands.map((c) => c.name)).not.toContain('ping');
    expect(onB.commands.map((c) => c.name)).toContain('ping');

    // So do mocks: A's route answers A's requests, B's app still reaches the real backend.
    const url = `${backend.url}/teapot`;
    const created = await a.api.post('/v1/mocked-routes', {
      deviceId: installId, isEnabled: true, mockData: { method: 'GET', mockedUrl: url, statusCode: 418, body: 'mocked for A' },
    });
    expect(created.status).toBe(201);
    const route = created.body as MockedRoute;
    await expect.poll(() => onA.commands.some((c) => c.name === 'mocks')).toBe(true);
    expect(await (await onA.client.fetch(url)).text()).toBe('mocked for A');
    expect(await (await onB.client.fetch(url)).text()).toBe('real');
    expect(onB.commands.some((c) => c.name === 'mocks')).toBe(false);
    expect((await b.api.get(`/v1/mocked-routes?deviceId=${installId}`)).body).toEqual([]);
    expect((await b.api.delete(`/v1/mocked-routes/${route.id}`)).status).toBe(404);
    expect((await a.api.get(`/v1/mocked-routes?deviceId=${installId}`)).body).toEqual([expect.objectContaining({ id: route.id })]);

    // Deleting the device in A leaves B's device, items and connection alone.
    expect((await a.api.delete(`/v1/devices/${installId}`)).status).toBe(200);
    expect((await a.api.get('/v1/devices')).body).toEqual([]);
    onB.client.log('still B');
    await onB.client.flush();
    expect(await appLogs(b.api, installId)).toEqual(['only for B', 'still B']);
    expect((await b.api.get(`/v1/devices/${installId}`)).body).toMatchObject({ id: installId, online: true });
  });

  it("answers another account's device exactly like a device that does not exist", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const installId = `only-a-${crypto.randomUUID()}`;
    await install(a.profile.apiKey, installId);
    const missing = `missing-${crypto.randomUUID()}`;
    for (const [method, suffix] of [['get', ''], ['get', '/send-ping'], ['delete', '/requests']] as const) {
      const foreign = await b.api[method](`/v1/devices/${installId}${suffix}`);
      const absent = await b.api[method](`/v1/devices/${missing}${suffix}`);
      expect([foreign.status, foreign.body]).toEqual([absent.status, absent.body]);
      expect(foreign.status).toBe(404);
    }
    const foreignPage = await b.api.get(`/v1/requests?deviceId=${installId}`);
    const absentPage = await b.api.get(`/v1/requests?deviceId=${missing}`);
    expect([foreignPage.status, foreignPage.body]).toEqual([absentPage.status, absentPage.body]);
  });
});

describeApi('migration 0005: devices keyed by account and install id', () => {
  const schema = `sg_mig5_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-mig5-'));
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: engine === 'postgres' ? TEST_DATABASE_URL : null, dataDir, pgSchema: schema });
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
    }
  });

  it('keeps every existing device, item and mocked route, and lets a second account use the same install id', async () => {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider, ...(engine === 'postgres' ? { migrationTableSchema: schema } : {}) });
    const before = await migrator.migrateTo('0004_mocked_routes');
    expect(before.error).toBeUndefined();
    const db = database.db;
    const user = (id: string) => ({
      id, email: `${id}@example.com`, password_hash: null, auth_provider: 'email' as const, api_key: `key-${id}`, settings: '{}', email_verified: 1,
      is_demo: 0, created_at: 1, updated_at: 1,
    });
    await db.insertInto('users').values([user('u1'), user('u2')]).execute();
    await db.insertInto('devices').values({
      id: 'phone', user_id: 'u1', platform: 'ios', info: '{"platform":"ios"}', feature_toggles: '{}', last_seen: 5, last_num: 2,
      created_at: 1, updated_at: 1,
    }).execute();
    const item = (id: string, num: number) => ({
      user_id: 'u1', device_id: 'phone', id, num, type: 'log', size: 3, created_at: num, updated_at: num, details: '{"message":"m"}',
      request_body: num === 2 ? 'body' : null,
    });
    await db.insertInto('items').values([item('i1', 1), item('i2', 2)]).execute();
    await db.insertInto('mocked_routes').values({
      id: 'r1', user_id: 'u1', device_id: 'phone', method: 'GET', mocked_url: 'https://x/*', mock_data: '{}', description: '', tags: '[]',
      is_enabled: 1, are_live_updates_enabled: 0, created_at: 1, updated_at: 1,
    }).execute();

    await migrateToLatest(db, engine === 'postgres' ? schema : undefined);

    expect(await db.selectFrom('devices').select(['user_id', 'id', 'last_num', 'last_seen']).execute())
      .toEqual([{ user_id: 'u1', id: 'phone', last_num: 2, last_seen: 5 }]);
    expect(await db.selectFrom('items').select(['id', 'num', 'request_body']).orderBy('num').execute())
      .toEqual([{ id: 'i1', num: 1, request_body: null }, { id: 'i2', num: 2, request_body: 'body' }]);
    expect(await db.selectFrom('mocked_routes').select(['id', 'device_id']).execute()).toEqual([{ id: 'r1', device_id: 'phone' }]);

    // The same install id is a second device, in the other account, with an item of the same id.
    await db.insertInto('devices').values({
      id: 'phone', user_id: 'u2', platform: 'android', info: '{"platform":"android"}', feature_toggles: '{}', last_seen: 9,
      created_at: 9, updated_at: 9,
    }).execute();
    await db.insertInto('items').values({ ...item('i1', 1), user_id: 'u2' }).execute();
    // Items still belong to a device of their account, and go with it: on SQLite by the foreign key;
    // on PostgreSQL, which dropped it in 0013, by the ingest's lock on the device and deleteDevice.
    if (engine === 'sqlite') {
      await expect(db.insertInto('items').values({ ...item('i9', 9), user_id: 'u2', device_id: 'no-such-device' }).execute()).rejects.toThrow();
    }
    expect(await deleteDevice(db, new FileBlobStore(dataDir), 'u1', 'phone')).toBe(true);
    expect(await db.selectFrom('items').select(['user_id', 'id']).execute()).toEqual([{ user_id: 'u2', id: 'i1' }]);
    expect(await db.selectFrom('mocked_routes').select('id').execute()).toEqual([]);
    const indexes = engine === 'postgres'
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db)).rows;
    expect(indexes.map((r) => r.name)).toEqual(expect.arrayContaining(['devices_user', 'items_device_num', 'items_user_id', 'items_mocked', 'mocked_routes_device']));
  });
});
