import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BlobStore } from '../src/blobs/blob-store';
import { FileBlobStore } from '../src/blobs/file-blob-store';
import { DAY_MS, runRetention, startRetentionJob } from '../src/jobs/retention';
import { sessionBlobOwner } from '../src/repositories/sessions.repository';
import { describeApi, signUp, useTestServer } from './helpers';
import { connectDevice, connectViewer, items } from './live-clients';

const START = Date.parse('2026-06-01T12:00:00.000Z');

describeApi('retention job', () => {
  let clock = START;
  const server = useTestServer({ now: () => clock, config: { retentionDays: 30 } });

  const blobFiles = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : [];

  it('removes items and sessions past the history window with their blobs, and keeps newer ones', async () => {
    const { ctx } = server.app;
    const blobs = new FileBlobStore(ctx.config.dataDir);
    const { api, profile, token } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const iso = (ms: number) => new Date(ms).toISOString();

    // 40 and 31 days old, then 29 days and 1 hour old (kept), as the window is 30 days.
    const oldShot = { ...items.screenshot('b2xk'), createdAt: iso(START - 40 * DAY_MS) };
    const oldBody = items.network({ responseBody: 'o'.repeat(70 * 1024), createdAt: iso(START - 31 * DAY_MS) });
    const oldLogs = Array.from({ length: 7 }, (_, i) => items.log(`old ${i}`, iso(START - 35 * DAY_MS + i)));
    const fresh = items.network({ responseBody: 'f'.repeat(70 * 1024), createdAt: iso(START - 29 * DAY_MS) });
    const freshShot = { ...items.screenshot('bmV3'), createdAt: iso(START - 3_600_000) };
    await device.sendItems([oldShot, oldBody, ...oldLogs, fresh, freshShot]);
    const liveBlobs = await Promise.all([oldShot, oldBody, fresh, freshShot].map(async (i) => (await ctx.db.selectFrom('items')
      .select(['image_blob', 'response_body_blob']).where('id', '=', i.id).executeTakeFirstOrThrow())));
    const [oldShotKey, oldBodyKey, freshKey, freshShotKey] = liveBlobs.map((r) => path.join(blobs.root, (r.image_blob ?? r.response_body_blob)!));
    for (const file of [oldShotKey, oldBodyKey, freshKey, freshShotKey]) expect(fs.existsSync(file!)).toBe(true);

    // A session saved 31 days ago (expires) and one saved now (stays), both holding a screenshot.
    clock = START - 31 * DAY_MS;
    const expired = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Old', requestIds: [oldShot.id, oldLogs[0]!.id] })).body;
    clock = START;
    const kept = (await api.post('/v1/sessions', { deviceId: device.deviceId, name: 'New', requestIds: [oldShot.id, fresh.id] })).body;
    const sessionDir = (id: string) => path.join(blobs.root, BlobStore.key(profile.id, sessionBlobOwner(id), 'x', 'image').split('/').slice(0, 2).join('/'));
    expect(blobFiles(sessionDir(expired.id))).toHaveLength(1);
    expect(blobFiles(sessionDir(kept.id))).toHaveLength(2);

    // A page open on the device is told which items went, so that it never offers them to a save.
    const viewer = await connectViewer(server.url, token);
    await viewer.subscribe(device.deviceId);
    const job = startRetentionJob({
      db: ctx.db, blobs, days: 30, now: () => clock, log: server.app.log, intervalMs: 3_600_000,
      announce: (userId, deviceId, ids) => ctx.live.viewers.requestsDeleted(userId, deviceId, ids),
    });
    await job.runOnce();
    await job.stop();
    const announced = await viewer.next('requests_deleted');
    expect(announced.deviceId).toBe(device.deviceId);
    expect([...announced.ids].sort()).toEqual([oldShot, oldBody, ...oldLogs].map((i) => i.id).sort());
    await viewer.close();

    const left = await api.get(`/v1/requests?deviceId=${device.deviceId}`);
    expect(left.body.items.map((i: { id: string }) => i.id).sort()).toEqual([fresh.id, freshShot.id].sort());
    expect(fs.existsSync(oldShotKey!)).toBe(false);
    expect(fs.existsSync(oldBodyKey!)).toBe(false);
    expect(fs.existsSync(freshKey!)).toBe(true);
    expect(fs.existsSync(freshShotKey!)).toBe(true);

    expect((await api.get(`/v1/sessions/${expired.id}`)).status).toBe(404);
    expect(blobFiles(sessionDir(expired.id))).toHaveLength(0);
    expect(await ctx.db.selectFrom('session_items').select('id').where('session_id', '=', expired.id).execute()).toEqual([]);
    // The newer session keeps even the items whose live copies expired, image included.
    expect((await api.get('/v1/sessions')).body.map((s: { id: string }) => s.id)).toEqual([kept.id]);
    expect((await api.get(`/v1/sessions/${kept.id}/items/${oldShot.id}`)).body.details.image).toBe('b2xk');
    await device.close();
  });

  it('walks a device’s items in batches and stops at the first batch with nothing expired', async () => {
    const { ctx } = server.app;
    const blobs = new FileBlobStore(ctx.config.dataDir);
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const old = Array.from({ length: 23 }, (_, i) => items.log(`old ${i}`, new Date(START - 60 * DAY_MS + i).toISOString()));
    const fresh = Array.from({ length: 12 }, (_, i) => items.log(`new ${i}`, new Date(START - DAY_MS + i).toISOString()));
    await device.sendItems([...old, ...fresh]);
    // Batches of 5: the walk crosses several of them, the last one mixed.
    const removed = await runRetention(ctx.db, blobs, START - 30 * DAY_MS, { batch: 5 });
    expect(removed.items).toBeGreaterThanOrEqual(23);
    const left = await api.get(`/v1/requests?deviceId=${device.deviceId}`);
    expect(left.body.items.map((i: { id: string }) => i.id).sort()).toEqual(fresh.map((i) => i.id).sort());
    await device.close();
  });
});
