import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CLOSE_CODES, type DeviceItem, type ErrorFrame } from '@spyglass/protocol';
import { FileBlobStore } from '../src/blobs/file-blob-store';
import { DEFAULT_INGEST_LIMITS } from '../src/ingest/ingest-limits';
import { deleteDevice } from '../src/repositories/devices.repository';
import { findItem, findItemsPage, findTraffic } from '../src/repositories/items.repository';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { TestDevice, itemId, itemsOfEveryType, logItem } from './device-protocol-client';

const networkRequest = (id: string, body?: string): DeviceItem => ({
  id, type: 'network', createdAt: '2026-03-01T10:00:00.000Z',
  details: { request: { method: 'PUT', url: 'https://api.example.com/cart', headers: { 'x-trace': 'abc' }, ...(body ? { body } : {}), startedAt: '2026-03-01T10:00:00.000Z' } },
});

const networkCompletion = (id: string, responseBody: string): DeviceItem => ({
  id, type: 'network', createdAt: '2026-03-01T10:00:00.000Z',
  details: {
    request: { method: 'PUT', url: 'https://api.example.com/cart', headers: { 'x-trace': 'abc' }, startedAt: '2026-03-01T10:00:00.000Z' },
    response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: responseBody, receivedAt: '2026-03-01T10:00:00.250Z' },
  },
});

describeApi('ingest', () => {
  let server: TestServer;
  let apiKey: string;
  let userId: string;

  beforeAll(async () => {
    server = await startTestServer({
      // Frames from 8 KB up are parsed on the worker thread, so that most tests here cross it too.
      // The fuzz below sends hundreds of refused frames on purpose: closing a device for that is
      // tested in device-abuse.test.ts.
      config: {
        ingest: { ...DEFAULT_INGEST_LIMITS, maxFrameBytes: 256 * 1024, maxItemsPerFrame: 50, offThreadParseBytes: 8 * 1024, refusalsBurst: 100_000 },
      },
    });
    const account = await signUp(server.url);
    apiKey = account.profile.apiKey;
    userId = account.profile.id;
  });
  afterAll(() => server?.close());

  const page = (deviceId: string) => findItemsPage(server.app.ctx.db, userId, { deviceId, limit: 5000 });

  it('acknowledges a batch only once it is committed, with display numbers in arrival order', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    const first = itemsOfEveryType();
    const second = [logItem('a'), logItem('b')];
    client.sendItems(1, first);
    client.sendItems(2, second);
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    // Once acked, the batch is readable from the database.
    const afterFirst = await page(deviceId);
    expect(afterFirst.items.length).toBeGreaterThanOrEqual(first.length);
    expect(await client.ack(2)).toEqual({ type: 'ack', seq: 2 });
    const { items } = await page(deviceId);
    // Newest first, numbered 1.. in the order the device sent them.
    expect(items.map((i) => i.num)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(items.map((i) => i.id)).toEqual([...first, ...second].map((i) => i.id).reverse());
    const network = items.find((i) => i.type === 'network')!;
    expect(network).toMatchObject({ method: 'POST', url: 'https://api.example.com/v1/orders?page=2', status: 201, duration: 123.5, hasRequestBody: true, hasResponseBody: true });
    // The list form carries no bodies; the full item does.
    expect(network.details).not.toHaveProperty('request.body');
    const full = await findItem(server.app.ctx.db, blobsOf(server), userId, network.id);
    expect(full?.details).toMatchObject({ request: { body: '{"item":42}' }, response: { body: '{"id":"o-1"}' } });
    await client.close();
  });

  it('completes a network item sent first with its request and later with its response', async () => {
    const deviceId = itemId('dev');
    const id = itemId('net');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.sendItems(1, [networkRequest(id, '{"qty":1}')]);
    await client.ack(1);
    client.sendItems(2, [logItem('between')]);
    await client.ack(2);
    client.sendItems(3, [networkCompletion(id, '{"ok":true}')]);
    await client.ack(3);
    const { items } = await page(deviceId);
    expect(items).toHaveLength(2);
    const network = items.find((i) => i.id === id)!;
    // Same row, same number; the request body sent first survives the completion.
    expect(network).toMatchObject({ num: 1, status: 200, duration: 250, hasRequestBody: true, hasResponseBody: true });
    const full = await findItem(server.app.ctx.db, blobsOf(server), userId, id);
    expect(full?.details).toMatchObject({ request: { body: '{"qty":1}' }, response: { statusCode: 200, body: '{"ok":true}' } });
    await client.close();
  });

  it('stores a request and its completion sent back to back (one commit) as one item', async () => {
    const deviceId = itemId('dev');
    const id = itemId('net');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.sendItems(1, [networkRequest(id, 'req')]);
    client.sendItems(2, [networkCompletion(id, 'res')]);
    await client.ack(2);
    const { items } = await page(deviceId);
    expect(items).toHaveLength(1);
    const full = await findItem(server.app.ctx.db, blobsOf(server), userId, id);
    expect(full?.details).toMatchObject({ request: { body: 'req' }, response: { body: 'res' } });
    await client.close();
  });

  it('stores a resent batch exactly once (a reconnect after a lost ack)', async () => {
    const deviceId = itemId('dev');
    const items = [logItem('one'), logItem('two'), networkRequest(itemId('net'))];
    const { client: first } = await TestDevice.online(server.url, apiKey, deviceId);
    first.sendItems(10, items);
    await first.ack(10);
    await first.close();
    const { client: second } = await TestDevice.online(server.url, apiKey, deviceId);
    second.sendItems(0, items);
    await second.ack(0);
    const stored = await page(deviceId);
    expect(stored.items.map((i) => i.num)).toEqual([3, 2, 1]);
    await second.close();
  });

  it('numbers new items after a resend without gaps, whatever their place in the batch', async () => {
    const deviceId = itemId('dev');
    const sent = [logItem('one'), logItem('two'), logItem('three')];
    const { client: first } = await TestDevice.online(server.url, apiKey, deviceId);
    first.sendItems(1, sent);
    await first.ack(1);
    await first.close();
    // After a reconnect: a new item, the three resent, another new one, in one frame.
    const before = logItem('before');
    const after = logItem('after');
    const { client: second } = await TestDevice.online(server.url, apiKey, deviceId);
    second.sendItems(0, [before, ...sent, after]);
    await second.ack(0);
    const stored = await page(deviceId);
    expect(stored.items.map((i) => [i.id, i.num])).toEqual([[after.id, 5], [before.id, 4], ...[...sent].reverse().map((i, n) => [i.id, 3 - n])]);
    second.sendItems(1, [logItem('next')]);
    await second.ack(1);
    expect((await page(deviceId)).items[0]!.num).toBe(6);
    await second.close();
  });

  it('refuses duplicate and out-of-order sequence numbers without storing them', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.sendItems(5, [logItem('five')]);
    await client.ack(5);
    const dup = logItem('dup');
    client.sendItems(5, [dup]);
    expect(await client.ack(5)).toMatchObject({ type: 'error', code: 'bad_sequence', seq: 5 });
    client.sendItems(3, [dup]);
    expect(await client.ack(3)).toMatchObject({ type: 'error', code: 'bad_sequence', seq: 3 });
    client.sendItems(6, [logItem('six')]);
    expect(await client.ack(6)).toEqual({ type: 'ack', seq: 6 });
    expect((await page(deviceId)).items.map((i) => i.details)).toEqual([{ message: 'six', level: 'debug' }, { message: 'five', level: 'debug' }]);
    await client.close();
  });

  it('refuses a whole frame when one of its items is invalid (no half-batch)', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.send({ type: 'items', seq: 1, items: [logItem('fine'), { id: itemId(), type: 'video', createdAt: 'now', details: {} }] });
    const error = await client.ack(1);
    expect(error).toMatchObject({ type: 'error', code: 'bad_items', seq: 1 });
    client.send({ type: 'items', seq: 2, items: [logItem('fine'), { id: itemId(), type: 'network', createdAt: 'now', details: { request: { url: 'x' } } }] });
    expect(await client.ack(2)).toMatchObject({ type: 'error', code: 'bad_items', seq: 2 });
    expect((await page(deviceId)).items).toHaveLength(0);
    // The connection stays usable.
    client.sendItems(3, [logItem('ok')]);
    expect(await client.ack(3)).toEqual({ type: 'ack', seq: 3 });
    await client.close();
  });

  it('answers frames above the size limit or with too many items with an error frame', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.send(`{"type":"items","seq":1,"items":[${JSON.stringify(logItem('x'.repeat(200 * 1024)))},${JSON.stringify(logItem('y'.repeat(100 * 1024)))}]}`);
    expect(await client.ack(1)).toMatchObject({ type: 'error', code: 'frame_too_large', seq: 1 });
    client.sendItems(2, Array.from({ length: 51 }, () => logItem()));
    expect(await client.ack(2)).toMatchObject({ type: 'error', code: 'bad_items', seq: 2 });
    client.sendItems(3, [logItem('small')]);
    expect(await client.ack(3)).toEqual({ type: 'ack', seq: 3 });
    expect((await page(deviceId)).items).toHaveLength(1);
    await client.close();
  });

  it('parses large frames off the event loop and still answers every frame in order', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    const large = [networkRequest(itemId('net'), 'b'.repeat(40 * 1024)), logItem('l'.repeat(20 * 1024))];
    client.sendItems(1, large);
    client.sendItems(2, [logItem('small, right behind')]);
    client.send(`{"type":"items","seq":3,"items":[${'x'.repeat(10 * 1024)}`);
    client.send({ type: 'ping', t: 4 });
    client.sendItems(5, [logItem('after the broken one')]);
    const answers = [await client.next(), await client.next(), await client.next(), await client.next(), await client.next()];
    const order = answers.map((f) => (f.type === 'ack' ? `ack ${f.seq}` : f.type === 'error' ? `error ${f.code}` : f.type));
    // Acks in sequence order; a refusal before the ack of any later frame (docs/protocol.md §4).
    expect(order.filter((o) => o.startsWith('ack'))).toEqual(['ack 1', 'ack 2', 'ack 5']);
    expect(order.indexOf('error bad_frame')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('error bad_frame')).toBeLessThan(order.indexOf('ack 5'));
    expect(order).toContain('pong');
    const { items } = await page(deviceId);
    expect(items.map((i) => i.num)).toEqual([4, 3, 2, 1]);
    const full = await findItem(server.app.ctx.db, blobsOf(server), userId, large[0]!.id);
    expect(full?.details).toMatchObject({ request: { body: 'b'.repeat(40 * 1024) } });
    await client.close();
  });

  it('counts the traffic each account receives', async () => {
    const account = await signUp(server.url);
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, account.profile.apiKey, deviceId);
    client.sendItems(1, [logItem('counted'), logItem('twice')]);
    await client.ack(1);
    const traffic = await findTraffic(server.app.ctx.db, account.profile.id);
    // Each new item counts its size as stored (usage.test.ts: resends and completions).
    const stored = await findItemsPage(server.app.ctx.db, account.profile.id, { deviceId, limit: 10 });
    expect(traffic).toEqual([{ day: new Date().toISOString().slice(0, 10), bytes: stored.items.reduce((sum, i) => sum + i.size, 0), items: 2 }]);
    await client.close();
  });

  it('tells a connected device that it was deleted, and stores nothing for it', async () => {
    const deviceId = itemId('dev');
    const { client } = await TestDevice.online(server.url, apiKey, deviceId);
    client.sendItems(1, [logItem()]);
    await client.ack(1);
    await deleteDevice(server.app.ctx.db, blobsOf(server), userId, deviceId);
    client.sendItems(2, [logItem()]);
    expect(await client.ack(2)).toMatchObject({ type: 'error', code: 'device_deleted', seq: 2 });
    expect((await client.closed).code).toBe(DEVICE_CLOSE_CODES.deviceDeleted);
    expect((await page(deviceId)).items).toHaveLength(0);
  });

  describe('malformed frames', () => {
    it('answers garbage after hello with error frames and keeps serving (fuzz)', async () => {
      const deviceId = itemId('dev');
      const { client } = await TestDevice.online(server.url, apiKey, deviceId);
      let seq = 100;
      const frames = fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.json().map((j) => j),
        fc.anything().map((a) => { try { return JSON.stringify(a) ?? 'undefined'; } catch { return '{}'; } }),
        fc.record({ type: fc.constantFrom('items', 'result', 'device_info', 'ping', 'hello', 'nope'), seq: fc.anything(), items: fc.anything(), device: fc.anything() })
          .map((f) => JSON.stringify(f)),
        fc.array(fc.record({ id: fc.string(), type: fc.constantFrom('network', 'log', 'event', 'screenshot', 'firebaseAnalytics', 'x'), createdAt: fc.string(), details: fc.anything() }), { minLength: 1, maxLength: 5 })
          .map((items) => JSON.stringify({ type: 'items', seq: ++seq, items })),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      );
      await fc.assert(fc.asyncProperty(frames, async (frame) => {
        client.send(frame);
        client.send({ type: 'ping', t: seq });
        // Whatever came before, the connection still answers in order.
        const pong = await client.next((f) => f.type === 'pong' && f.t === seq);
        expect(pong.type).toBe('pong');
      }), { numRuns: 300 });
      client.sendItems(10_000, [logItem('still works')]);
      expect(await client.ack(10_000)).toEqual({ type: 'ack', seq: 10_000 });
      await client.close();
    });

    it('answers garbage instead of a hello with bad_hello and closes (fuzz)', async () => {
      await fc.assert(fc.asyncProperty(fc.oneof(fc.string({ maxLength: 100 }), fc.json()), async (frame) => {
        const client = await TestDevice.connect(server.url);
        client.send(frame);
        const { code } = await client.closed;
        expect([DEVICE_CLOSE_CODES.badHello, DEVICE_CLOSE_CODES.unsupportedVersion]).toContain(code);
      }), { numRuns: 40 });
      const { client } = await TestDevice.online(server.url, apiKey, itemId('dev'));
      await client.close();
    });

    it('closes a connection whose frame is above the transport cap, and survives it', async () => {
      const { client } = await TestDevice.online(server.url, apiKey, itemId('dev'));
      client.send('x'.repeat(600 * 1024));
      expect((await client.closed).code).toBe(1009);
      const { client: next } = await TestDevice.online(server.url, apiKey, itemId('dev'));
      await next.close();
    });
  });
});

describeApi('ingest rate limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        ingest: {
          ...DEFAULT_INGEST_LIMITS,
          // Refills too slow to matter while the test runs: the outcome depends on counts alone.
          deviceItemsPerSecond: 0.01, deviceItemsBurst: 20,
          accountItemsPerSecond: 0.01, accountItemsBurst: 30,
        },
      },
    });
  });
  afterAll(() => server?.close());

  it('answers a flood with rate_limited and retryAfterMs, per device and per account, without storing it', async () => {
    const account = await signUp(server.url);
    const { client } = await TestDevice.online(server.url, account.profile.apiKey, itemId('dev'));
    client.sendItems(1, Array.from({ length: 20 }, () => logItem()));
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    client.sendItems(2, Array.from({ length: 20 }, () => logItem()));
    const limited = await client.ack(2) as ErrorFrame;
    expect(limited).toMatchObject({ type: 'error', code: 'rate_limited', seq: 2 });
    expect(limited.retryAfterMs).toBeGreaterThan(0);

    // A second device of the same account gets what is left of the account's budget (30 - 20).
    const { client: other } = await TestDevice.online(server.url, account.profile.apiKey, itemId('dev'));
    other.sendItems(1, Array.from({ length: 15 }, () => logItem()));
    expect(await other.ack(1)).toMatchObject({ type: 'error', code: 'rate_limited' });
    other.sendItems(2, Array.from({ length: 5 }, () => logItem()));
    expect(await other.ack(2)).toEqual({ type: 'ack', seq: 2 });
    const traffic = await findTraffic(server.app.ctx.db, account.profile.id);
    expect(traffic[0]?.items).toBe(25);
    await client.close();
    await other.close();
  });
});

const blobsOf = (server: TestServer) => new FileBlobStore(server.app.ctx.config.dataDir);
