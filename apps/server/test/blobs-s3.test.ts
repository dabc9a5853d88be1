import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharedSessionData } from '@spyglass/protocol';
import { BlobStore } from '../src/blobs/blob-store';
import { S3BlobStore } from '../src/blobs/s3-blob-store';
import { DAY_MS, runRetention } from '../src/jobs/retention';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, items } from './live-clients';
import { startS3Server, type TestS3Server } from './support/s3-server';

/** The same product on an S3-compatible bucket (s3rver): bodies, screenshots, session copies, retention, share host. */
describeApi('blobs in S3-compatible storage', () => {
  let s3: TestS3Server;
  let server: TestServer;
  let shareUrl: string;
  let clock = Date.now();

  beforeAll(async () => {
    s3 = await startS3Server();
    server = await startTestServer({ now: () => clock, config: { s3: s3.config } });
    shareUrl = await server.app.shareServer.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('is the store the node uses when S3_BUCKET is set', () => {
    expect(server.app.ctx.blobs).toBeInstanceOf(S3BlobStore);
  });

  it('keeps large bodies and screenshots as objects, served whole by the API, and deletes them with their items', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const network = items.network({ requestBody: 'q'.repeat(80 * 1024), responseBody: 'é'.repeat(70 * 1024) });
    const shot = items.screenshot('iVBORw0KGgo=');
    const before = s3.keys().length;
    await device.sendItems([network, shot, items.log('no blob')]);
    const keys = [BlobStore.key(profile.id, device.deviceId, network.id, 'requestBody'), BlobStore.key(profile.id, device.deviceId, network.id, 'responseBody'),
      BlobStore.key(profile.id, device.deviceId, shot.id, 'image')];
    expect(s3.keys()).toEqual(expect.arrayContaining(keys));
    expect(s3.keys().length - before).toBe(3);

    const full = await api.get(`/v1/requests/${network.id}`);
    expect(full.body.details).toMatchObject({ request: { body: 'q'.repeat(80 * 1024) }, response: { body: 'é'.repeat(70 * 1024) } });
    expect((await api.get(`/v1/requests/${shot.id}`)).body.details).toMatchObject({ image: 'iVBORw0KGgo=' });

    expect((await api.delete(`/v1/requests/${shot.id}`)).status).toBe(200);
    expect(s3.keys()).not.toContain(keys[2]);
    expect(s3.keys().length - before).toBe(2);
    await device.close();
  });

  it("copies a session's blobs, so that the session outlives the live items, and shares it through the share host", async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const network = items.network({ responseBody: 'r'.repeat(90 * 1024) });
    const shot = items.screenshot('aW1hZ2U=');
    await device.sendItems([network, shot]);
    const before = s3.keys().length;
    const session = await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Bug on S3', requestIds: [network.id, shot.id] });
    expect(session.status).toBe(201);
    expect(s3.keys().length - before).toBe(2);

    // The live items and their objects go; the session's copies stay.
    expect((await api.delete(`/v1/requests/${shot.id}`)).status).toBe(200);
    expect((await api.get(`/v1/sessions/${session.body.id}/items/${shot.id}`)).body.details.image).toBe('aW1hZ2U=');

    await api.put(`/v1/sessions/${session.body.id}`, { isShared: true });
    const shared = await fetch(`${shareUrl}/shared-sessions/${session.body.id}/data.json`);
    expect(shared.status).toBe(200);
    const body = SharedSessionData.parse(await shared.json());
    expect((body.items[0]!.details as { response: { body: string } }).response.body).toBe('r'.repeat(90 * 1024));
    expect((body.items[1]!.details as { image: string }).image).toBe('aW1hZ2U=');
    await device.close();
  });

  it('retention deletes the objects of expired items and sessions', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const old = { ...items.screenshot('b2xk'), createdAt: new Date(clock - 40 * DAY_MS).toISOString() };
    const fresh = items.screenshot('bmV3');
    await device.sendItems([old, fresh]);
    const oldKey = BlobStore.key(profile.id, device.deviceId, old.id, 'image');
    const freshKey = BlobStore.key(profile.id, device.deviceId, fresh.id, 'image');
    const saved = clock;
    clock -= 31 * DAY_MS;
    const expired = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Old', requestIds: [old.id] })).body;
    clock = saved;
    const sessionObjects = s3.keys().length;

    await runRetention(server.app.ctx.db, server.app.ctx.blobs, clock - 30 * DAY_MS);
    expect(s3.keys()).not.toContain(oldKey);
    expect(s3.keys()).toContain(freshKey);
    // The old item's object and the expired session's copy.
    expect(s3.keys().length).toBe(sessionObjects - 2);
    expect((await api.get(`/v1/sessions/${expired.id}`)).status).toBe(404);
    await device.close();
  });

  it("deletes a device's and an account's objects by prefix, and refuses foreign keys", async () => {
    const blobs = server.app.ctx.blobs;
    const key = (user: string, device: string, item: string) => BlobStore.key(user, device, item, 'image');
    await Promise.all([blobs.put(key('u1', 'd1', 'a'), 'a'), blobs.put(key('u1', 'd2', 'b'), 'b'), blobs.put(key('u2', 'd1', 'c'), 'c')]);
    await blobs.deleteDevice('u1', 'd1');
    expect(await blobs.read(key('u1', 'd1', 'a'))).toBeNull();
    expect(await blobs.read(key('u1', 'd2', 'b'))).toBe('b');
    await blobs.deleteUser('u1');
    expect(await blobs.read(key('u1', 'd2', 'b'))).toBeNull();
    expect(await blobs.read(key('u2', 'd1', 'c'))).toBe('c');
    expect(await blobs.link(key('u9', 'd9', 'gone'), key('u2', 'd1', 'copy'))).toBe(false);
    await expect(blobs.read('../../etc/passwd')).rejects.toThrow('Invalid blob key');
  });
});
