import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ITEM_LIMITS, type DeviceItem } from '@spyglass/protocol';
import { FileBlobStore } from '../src/blobs/file-blob-store';
import { deleteDevice } from '../src/repositories/devices.repository';
import { clearDeviceItems, deleteItems, findItem, findItemsPage } from '../src/repositories/items.repository';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { TestDevice, itemId, logItem } from './device-protocol-client';

/** Every file under the blob directory, so that a test can see blobs appear and go. */
function blobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map((f) => path.join(root, f)).filter((f) => fs.statSync(f).isFile());
}

const bigJson = (kb: number, seed: string) => JSON.stringify({ seed, rows: 'é'.repeat(kb * 512) });

describeApi('blob store', () => {
  let server: TestServer;
  let apiKey: string;
  let userId: string;
  let blobs: FileBlobStore;
  let dataDir: string;

  beforeAll(async () => {
    server = await startTestServer();
    const account = await signUp(server.url);
    apiKey = account.profile.apiKey;
    userId = account.profile.id;
    dataDir = server.app.ctx.config.dataDir;
    blobs = new FileBlobStore(dataDir);
  });
  afterAll(() => server?.close());

  async function sendLarge(deviceId: string, key = apiKey) {
    const { client } = await TestDevice.online(server.url, key, deviceId);
    const requestBody = bigJson(80, 'request');
    const responseBody = bigJson(100, 'response');
    const image = Buffer.alloc(30 * 1024, 7).toString('base64');
    const small = 'x'.repeat(ITEM_LIMITS.inlineBodyBytes - 10);
    const items: DeviceItem[] = [
      {
        id: itemId('big'), type: 'network', createdAt: new Date().toISOString(),
        details: { request: { method: 'POST', url: 'https://example.com/upload', headers: {}, body: requestBody }, response: { statusCode: 200, headers: {}, body: responseBody } },
      },
      {
        id: itemId('small'), type: 'network', createdAt: new Date().toISOString(),
        details: { request: { method: 'POST', url: 'https://example.com/small', headers: {}, body: small } },
      },
      { id: itemId('shot'), type: 'screenshot', createdAt: new Date().toISOString(), details: { name: 'Home', image, mimeType: 'image/png' } },
      logItem('no blob'),
    ];
    client.sendItems(1, items);
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    await client.close();
    return { items, requestBody, responseBody, image, small };
  }

  it('keeps bodies above 64 KB and screenshots as files, with a preview on the row', async () => {
    const deviceId = itemId('dev');
    const before = blobFiles(dataDir).length;
    const { items, requestBody, responseBody, image, small } = await sendLarge(deviceId);
    // Request body, response body and the screenshot; the 64 KB body stays inline.
    expect(blobFiles(dataDir).length - before).toBe(3);

    const row = await server.app.ctx.db.selectFrom('items').selectAll().where('id', '=', items[0]!.id).executeTakeFirstOrThrow();
    expect(row.request_body).toBe(requestBody.slice(0, ITEM_LIMITS.bodyPreviewBytes));
    expect(row.request_body_blob).toMatch(/^[0-9a-f]{16}\/[0-9a-f]{16}\/[0-9a-f]{32}$/);
    expect(row.details).not.toContain('"seed"');

    const full = await findItem(server.app.ctx.db, blobs, userId, items[0]!.id);
    expect(full?.details).toMatchObject({ request: { body: requestBody }, response: { body: responseBody } });
    expect((await findItem(server.app.ctx.db, blobs, userId, items[1]!.id))?.details).toMatchObject({ request: { body: small } });
    expect((await findItem(server.app.ctx.db, blobs, userId, items[2]!.id))?.details).toMatchObject({ name: 'Home', image });

    // The list never carries bodies or images.
    const page = await findItemsPage(server.app.ctx.db, userId, { deviceId, limit: 10 });
    expect(JSON.stringify(page.items)).not.toContain('"seed"');
    expect(page.items.find((i) => i.type === 'screenshot')?.details).toEqual({ name: 'Home', mimeType: 'image/png' });
  });

  it('deletes blobs with their items, with a clear, and with the device', async () => {
    const first = await sendLarge(itemId('dev'));
    const deviceId = itemId('dev');
    await sendLarge(deviceId);
    const files = blobFiles(dataDir).length;

    const deleted = await deleteItems(server.app.ctx.db, blobs, userId, [first.items[0]!.id, first.items[2]!.id]);
    expect(deleted).toHaveLength(2);
    expect(blobFiles(dataDir).length).toBe(files - 3);

    expect(await clearDeviceItems(server.app.ctx.db, blobs, userId, deviceId)).toBe(4);
    expect(blobFiles(dataDir).length).toBe(files - 6);

    const third = itemId('dev');
    await sendLarge(third);
    expect(blobFiles(dataDir).length).toBe(files - 3);
    expect(await deleteDevice(server.app.ctx.db, blobs, userId, third)).toBe(true);
    expect(blobFiles(dataDir).length).toBe(files - 6);
    expect(await findItemsPage(server.app.ctx.db, userId, { deviceId: third, limit: 10 })).toEqual({ items: [], nextBefore: null });
  });

  it("deletes an account's blobs with the account, and no one else's", async () => {
    const leaving = await signUp(server.url);
    const files = blobFiles(dataDir).length;
    await sendLarge(itemId('dev'), leaving.profile.apiKey);
    expect(blobFiles(dataDir).length).toBe(files + 3);
    const res = await leaving.api.delete(`/v1/user/${leaving.profile.id}`);
    expect(res.status).toBe(200);
    expect(blobFiles(dataDir).length).toBe(files);
  });

  it("never reads another account's blobs", async () => {
    const deviceId = itemId('dev');
    const { items } = await sendLarge(deviceId);
    const other = await signUp(server.url);
    expect(await findItem(server.app.ctx.db, blobs, other.profile.id, items[0]!.id)).toBeUndefined();
    expect(await deleteItems(server.app.ctx.db, blobs, other.profile.id, [items[0]!.id])).toEqual([]);
    expect(await findItem(server.app.ctx.db, blobs, userId, items[0]!.id)).toBeDefined();
  });

  it('refuses keys that are not its own (no path outside the blob directory)', async () => {
    await expect(blobs.read('../../etc/passwd')).rejects.toThrow('Invalid blob key');
    await expect(blobs.put('a/b/c', 'x')).rejects.toThrow('Invalid blob key');
  });

  it('pages a device through its items newest first with the before cursor', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.sendItems(1, Array.from({ length: 25 }, (_, i) => logItem(`m${i}`)));
    await client.ack(1);
    await client.close();
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await findItemsPage(server.app.ctx.db, userId, { deviceId, limit: 10, ...(before ? { before } : {}) });
      seen.push(...page.items.map((i) => i.num));
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
  });
});
