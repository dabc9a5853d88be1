import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { USER_DEFAULTS_CALLS_PER_MINUTE, USER_DEFAULTS_IOS_ONLY, USER_DEFAULTS_TOO_OLD } from '../src/services/user-defaults.service';
import { createSpyglass, memoryStorage, type SpyglassClient } from '@spyglass/sdk';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { TestDevice } from './device-protocol-client';
import { connectDevice, connectViewer } from './live-clients';

describeApi('user defaults API', () => {
  let server: TestServer;
  const clients: SpyglassClient[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-user-defaults-'));
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.stop()));
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An iOS device running the SDK, its user defaults in a JSON file of its own. */
  async function sdkDevice(apiKey: string) {
    const file = path.join(dir, `${clients.length}.json`);
    const client = createSpyglass({
      serverUrl: server.url, apiKey, storage: memoryStorage(), userDefaultsFile: file,
      device: { platform: 'ios', name: 'Defaults iPhone' }, capture: { fetch: false, xhr: false, http: false },
    });
    clients.push(client);
    await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
    return { client, file, deviceId: client.deviceId! };
  }

  it('reads, writes, renames and deletes on the device, which keeps them in its store', async () => {
    const { api, profile } = await signUp(server.url);
    const { client, file, deviceId } = await sdkDevice(profile.apiKey);
    await client.userDefaults.set('onboarded', true, 'group.app');

    const listed = await api.get(`/v1/user-defaults/${deviceId}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ deviceId, groups: [{ name: 'group.app', entries: [{ key: 'onboarded', value: true }] }] });

    const set = await api.post('/v1/user-defaults', { deviceId, name: 'standard', key: 'profile', value: { name: 'Ann', tags: ['a'] } });
    expect(set.status).toBe(200);
    expect(await client.userDefaults.get('profile')).toEqual({ name: 'Ann', tags: ['a'] });
    expect(set.body.groups).toEqual([
      { name: 'group.app', entries: [{ key: 'onboarded', value: true }] },
      { name: 'standard', entries: [{ key: 'profile', value: { name: 'Ann', tags: ['a'] } }] },
    ]);

    const renamed = await api.put('/v1/user-defaults', { deviceId, name: 'standard', oldKey: 'profile', newKey: 'user', value: 'Ann' });
    expect(renamed.status).toBe(200);
    expect(await client.userDefaults.get('profile')).toBeUndefined();
    expect(await client.userDefaults.get('user')).toBe('Ann');

    const deleted = await api.delete('/v1/user-defaults', { deviceId, name: 'group.app', key: 'onboarded' });
    expect(deleted.body.groups).toEqual([{ name: 'standard', entries: [{ key: 'user', value: 'Ann' }] }]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(deleted.body.groups);
  });

  it('tells the account’s viewers live when the app changes its user defaults', async () => {
    const { profile, token } = await signUp(server.url);
    const { client, deviceId } = await sdkDevice(profile.apiKey);
    const viewer = await connectViewer(server.url, token);
    await client.userDefaults.set('theme', 'dark');
    const message = await viewer.next('user_defaults_changed', (m) => m.deviceId === deviceId);
    expect(message.groups).toEqual([{ name: 'standard', entries: [{ key: 'theme', value: 'dark' }] }]);
    await viewer.close();
  });

  it('answers 400 for bad bodies and sends nothing to the device', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    const bad: Array<[string, string, unknown]> = [
      ['post', '/v1/user-defaults', { deviceId: device.deviceId, key: 'k', value: 'v' }],
      ['post', '/v1/user-defaults', { deviceId: device.deviceId, key: '', value: 'v', name: 'standard' }],
      ['post', '/v1/user-defaults', { deviceId: device.deviceId, key: 'k', value: 'x'.repeat(70_000), name: 'standard' }],
      ['post', '/v1/user-defaults', { deviceId: device.deviceId, key: 'k', name: 'standard' }],
      ['put', '/v1/user-defaults', { deviceId: device.deviceId, oldKey: 'a', value: 'v', name: 'standard' }],
      ['put', '/v1/user-defaults', { deviceId: device.deviceId, oldKey: 'a', newKey: 'b', value: 'v', name: 'standard', extra: 1 }],
      ['delete', '/v1/user-defaults', { deviceId: device.deviceId, name: 'standard' }],
      ['delete', '/v1/user-defaults', undefined],
    ];
    for (const [method, url, body] of bad) {
      const res = await (api as unknown as Record<string, (u: string, b?: unknown) => Promise<{ status: number; body: { error: string } }>>)[method]!(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect(device.commands).toEqual([]);
    await device.close();
  });

  it('answers 404 for another account’s device, which never receives the command', async () => {
    const owner = await signUp(server.url);
    const stranger = await signUp(server.url);
    const device = await connectDevice(server.url, owner.profile.apiKey);
    const calls = [
      stranger.api.get(`/v1/user-defaults/${device.deviceId}`),
      stranger.api.post('/v1/user-defaults', { deviceId: device.deviceId, key: 'k', value: 'v', name: 'standard' }),
      stranger.api.put('/v1/user-defaults', { deviceId: device.deviceId, oldKey: 'k', newKey: 'j', value: 'v', name: 'standard' }),
      stranger.api.delete('/v1/user-defaults', { deviceId: device.deviceId, key: 'k', name: 'standard' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Device not found' });
    }
    expect(device.commands).toEqual([]);
    // The owner still reaches it: the stranger's calls did not go anywhere.
    expect((await owner.api.get(`/v1/user-defaults/${device.deviceId}`)).status).toBe(502);
    expect(device.commands.map((c) => c.name)).toEqual(['user_defaults']);
    await device.close();
  });

  it('answers 409 for a device that is not iOS, which never receives the command', async () => {
    const { api, profile } = await signUp(server.url);
    for (const platform of ['android', 'web', 'node'] as const) {
      const device = await connectDevice(server.url, profile.apiKey, { device: { platform, name: `A ${platform} device` } });
      const calls = [
        api.get(`/v1/user-defaults/${device.deviceId}`),
        api.post('/v1/user-defaults', { deviceId: device.deviceId, key: 'k', value: 'v', name: 'standard' }),
        api.put('/v1/user-defaults', { deviceId: device.deviceId, oldKey: 'k', newKey: 'j', value: 'v', name: 'standard' }),
        api.delete('/v1/user-defaults', { deviceId: device.deviceId, key: 'k', name: 'standard' }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status, platform).toBe(409);
        expect(res.body).toEqual({ error: USER_DEFAULTS_IOS_ONLY });
      }
      expect(device.commands).toEqual([]);
      await device.close();
    }
  });

  it('answers 409 Device is offline, 504 when the device does not answer, 502 when it cannot', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey, { answer: () => ({ ok: false, error: 'Store is locked' }) });
    const refused = await api.get(`/v1/user-defaults/${device.deviceId}`);
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual({ error: 'Store is locked' });
    await device.close();
    const offline = await api.get(`/v1/user-defaults/${device.deviceId}`);
    expect(offline.status).toBe(409);
    expect(offline.body).toEqual({ error: 'Device is offline' });

    const silent = await connectDevice(server.url, profile.apiKey, { answer: () => null });
    const timedOut = await api.post('/v1/user-defaults', { deviceId: silent.deviceId, key: 'k', value: 'v', name: 'standard' });
    expect(timedOut.status).toBe(504);
    expect(timedOut.body).toEqual({ error: 'The device did not answer in time' });
    expect(silent.commands[0]).toMatchObject({ name: 'user_defaults', args: { op: 'set', name: 'standard', key: 'k', value: 'v' } });
    await silent.close();
  });

  it('refuses a device whose SDK speaks protocol 1 for user defaults only', async () => {
    const { api, profile } = await signUp(server.url);
    const old = await TestDevice.connect(server.url);
    old.hello(profile.apiKey, 'old-sdk-device', {}, 1);
    expect((await old.next()).type).toBe('welcome');
    const res = await api.get('/v1/user-defaults/old-sdk-device');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: USER_DEFAULTS_TOO_OLD });
    // Its other commands still work.
    const ping = api.get('/v1/devices/old-sdk-device/send-ping');
    const command = await old.next((f) => f.type === 'command');
    expect(command).toMatchObject({ name: 'ping' });
    old.send({ type: 'result', commandId: (command as { id: string }).id, ok: true, data: { pong: true } });
    expect((await ping).status).toBe(200);
    expect(old.frames.filter((f) => f.type === 'command')).toEqual([]);
    old.ws.close();
  });

  it('is rate-limited per account', async () => {
    const { api } = await signUp(server.url);
    let last = 0;
    for (let i = 0; i <= USER_DEFAULTS_CALLS_PER_MINUTE; i++) last = (await api.get('/v1/user-defaults/no-such-device')).status;
    expect(last).toBe(429);
  });
});
