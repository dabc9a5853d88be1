import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BlobStore } from '../src/blobs/blob-store';
import { apiClient, describeApi, signUp, useTestServer } from './helpers';
import { closeOf, connectDevice, connectViewer, items, signUpWithDevice } from './live-clients';

describeApi('devices API', () => {
  const server = useTestServer({ config: { latestSdkVersions: { ios: '1.5.0', android: '1.1.0' } } });

  /** An account with one connected device. */
  it('needs a token', async () => {
    expect((await apiClient(server.url).get('/v1/devices')).status).toBe(401);
    expect((await apiClient(server.url).get('/v1/devices/x/send-ping')).status).toBe(401);
  });

  it('lists the account’s devices, most recently seen first, and never another account’s', async () => {
    const { api, profile, device } = await signUpWithDevice(server.url, { device: { name: 'Old phone' } });
    const second = await connectDevice(server.url, profile.apiKey, { device: { platform: 'android', name: 'Pixel', model: 'Pixel 8' } });
    const stranger = await signUpWithDevice(server.url);

    const res = await api.get('/v1/devices');
    expect(res.status).toBe(200);
    expect(res.body.map((d: { id: string }) => d.id).sort()).toEqual([device.deviceId, second.deviceId].sort());
    const pixel = res.body.find((d: { id: string }) => d.id === second.deviceId);
    expect(pixel).toMatchObject({ platform: 'android', name: 'Pixel', model: 'Pixel 8', online: true, breakpointEnabled: false });
    expect(pixel.featureToggles).toEqual({ logs: true, network: true, prints: true, events: true });
    const lastSeen = res.body.map((d: { lastSeen: string }) => Date.parse(d.lastSeen));
    expect(lastSeen).toEqual([...lastSeen].sort((a, b) => b - a));

    expect((await stranger.api.get('/v1/devices')).body.map((d: { id: string }) => d.id)).toEqual([stranger.device.deviceId]);
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body).toMatchObject({ id: device.deviceId, name: 'Old phone' });
    for (const id of [stranger.device.deviceId, 'no-such-device']) {
      const foreign = await api.get(`/v1/devices/${id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: 'Device not found' });
    }
    await Promise.all([device.close(), second.close(), stranger.device.close()]);
  });

  it('updates name, group and feature toggles, tells the viewers and the device', async () => {
    const { api, token, device } = await signUpWithDevice(server.url);
    const viewer = await connectViewer(server.url, token);
    const current = (await api.get(`/v1/devices/${device.deviceId}`)).body;

    // The dashboard sends the whole device back with one toggle flipped (spec 001 §4).
    const res = await api.put(`/v1/devices/${device.deviceId}`, { ...current, name: 'Renamed', group: 'Team A', featureToggles: { ...current.featureToggles, logs: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: device.deviceId, name: 'Renamed', group: 'Team A', featureToggles: { logs: false, network: true } });
    const update = await viewer.next('device_update', (m) => m.device.id === device.deviceId);
    expect(update.device).toMatchObject({ name: 'Renamed', featureToggles: { logs: false } });
    await expect.poll(() => device.commands.find((c) => c.name === 'feature_toggles')?.args).toEqual({
      featureToggles: { logs: false, network: true, prints: true, events: true },
    });
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body).toMatchObject({ name: 'Renamed', group: 'Team A' });

    for (const body of [{ name: '' }, { featureToggles: { logs: 'no' } }, { featureToggles: { logs: true } }, { name: 'x'.repeat(201) }]) {
      const bad = await api.put(`/v1/devices/${device.deviceId}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body.name).toBe('Renamed');

    const stranger = await signUp(server.url);
    expect((await stranger.api.put(`/v1/devices/${device.deviceId}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body.name).toBe('Renamed');
    await viewer.close();
    await device.close();
  });

  it('does not pin a name or group that the dashboard sent back unchanged', async () => {
    const { api, profile, device } = await signUpWithDevice(server.url, { device: { name: 'First name', group: 'Alpha' } });
    const current = (await api.get(`/v1/devices/${device.deviceId}`)).body;
    const res = await api.put(`/v1/devices/${device.deviceId}`, { ...current, featureToggles: { ...current.featureToggles, events: false } });
    expect(res.body).toMatchObject({ name: 'First name', group: 'Alpha', featureToggles: { events: false } });
    await device.close();

    // The device reconnects under a new name: a toggle saved from the dashboard did not freeze the old one.
    const again = await connectDevice(server.url, profile.apiKey, { deviceId: device.deviceId, device: { name: 'Second name', group: 'Beta' } });
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body).toMatchObject({ name: 'Second name', group: 'Beta', featureToggles: { events: false } });
    await again.close();
  });

  it('stores the breakpoint switch and forwards it to the device', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const res = await api.post(`/v1/devices/${device.deviceId}/breakpoint`, { breakpointEnabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: device.deviceId, breakpointEnabled: true });
    await expect.poll(() => device.commands.find((c) => c.name === 'breakpoint')?.args).toEqual({ breakpointEnabled: true });
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body.breakpointEnabled).toBe(true);

    expect((await api.post(`/v1/devices/${device.deviceId}/breakpoint`, { breakpointEnabled: 'yes' })).status).toBe(400);
    expect((await api.post(`/v1/devices/${device.deviceId}/breakpoint`, {})).status).toBe(400);
    await device.close();
    // Stored while offline too: the device gets it in its next welcome.
    expect((await api.post(`/v1/devices/${device.deviceId}/breakpoint`, { breakpointEnabled: false })).body.breakpointEnabled).toBe(false);
    const stranger = await signUp(server.url);
    expect((await stranger.api.post(`/v1/devices/${device.deviceId}/breakpoint`, { breakpointEnabled: true })).status).toBe(404);
    expect((await api.get(`/v1/devices/${device.deviceId}`)).body.breakpointEnabled).toBe(false);
  });

  it('sends ping, take screenshot and open sheet to the device and answers what it said', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    for (const [route, command] of [['send-ping', 'ping'], ['take-screenshot', 'take_screenshot'], ['open-spyglass-sheet', 'open_sheet']] as const) {
      const res = await api.get(`/v1/devices/${device.deviceId}/${route}`);
      expect(res.status, route).toBe(200);
      expect(res.body).toEqual({ success: true, data: { name: command } });
      expect(device.commands.at(-1)?.name).toBe(command);
    }
    const stranger = await signUp(server.url);
    const foreign = await stranger.api.get(`/v1/devices/${device.deviceId}/send-ping`);
    expect(foreign.status).toBe(404);
    expect(device.commands).toHaveLength(3);
    await device.close();
  });

  it('answers 409 Device is offline when the device is gone, and 502 when it cannot run the command', async () => {
    const { api, profile, device } = await signUpWithDevice(server.url, {
      answer: (command) => (command.name === 'take_screenshot' ? { ok: false, error: 'No screenshot hook' } : { ok: true }),
    });
    const failed = await api.get(`/v1/devices/${device.deviceId}/take-screenshot`);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: 'No screenshot hook' });
    expect((await api.get(`/v1/devices/${device.deviceId}/send-ping`)).body).toEqual({ success: true });

    await device.close();
    for (const route of ['send-ping', 'take-screenshot', 'open-spyglass-sheet']) {
      const offline = await api.get(`/v1/devices/${device.deviceId}/${route}`);
      expect(offline.status, route).toBe(409);
      expect(offline.body).toEqual({ error: 'Device is offline' });
    }

    // Connected but silent: no answer in time counts as offline too.
    const silent = await connectDevice(server.url, profile.apiKey, { answer: () => null });
    const noAnswer = await api.get(`/v1/devices/${silent.deviceId}/send-ping`);
    expect(noAnswer.status).toBe(409);
    expect(silent.commands.map((c) => c.name)).toEqual(['ping']);
    await silent.close();
  });

  it('deletes a device with its items and blobs, closes its connection and tells the viewers', async () => {
    const { api, token, profile, device } = await signUpWithDevice(server.url);
    const stranger = await signUpWithDevice(server.url);
    const viewer = await connectViewer(server.url, token);
    const big = items.network({ responseBody: 'x'.repeat(100 * 1024) });
    await device.sendItems([big, items.screenshot(), items.log()]);
    const blobDir = path.dirname(path.join(server.app.ctx.config.dataDir, 'blobs', BlobStore.key(profile.id, device.deviceId, big.id, 'responseBody')));
    expect(fs.existsSync(blobDir)).toBe(true);

    expect((await stranger.api.delete(`/v1/devices/${device.deviceId}`)).status).toBe(404);
    expect((await api.get(`/v1/devices/${device.deviceId}`)).status).toBe(200);

    const closed = closeOf(device.ws);
    const res = await api.delete(`/v1/devices/${device.deviceId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await closed).code).toBe(4410);
    await viewer.next('device_deleted', (m) => m.deviceId === device.deviceId);

    expect((await api.get(`/v1/devices/${device.deviceId}`)).status).toBe(404);
    expect((await api.get(`/v1/requests/${big.id}`)).status).toBe(404);
    expect(fs.existsSync(blobDir)).toBe(false);
    expect((await api.delete(`/v1/devices/${device.deviceId}`)).status).toBe(404);
    // The other account's device is untouched.
    expect((await stranger.api.get(`/v1/devices/${stranger.device.deviceId}`)).status).toBe(200);
    await viewer.close();
    await stranger.device.close();
  });

  it('leaves none of its items behind when it is deleted while it sends', async () => {
    const { api, profile, device } = await signUpWithDevice(server.url);
    const { db } = server.app.ctx;
    const closed = closeOf(device.ws);
    // Frames keep arriving while the delete runs: commits that hold the device finish first, later ones find it gone.
    for (let seq = 0; seq < 60; seq++) device.ws.send(JSON.stringify({ type: 'items', seq, items: Array.from({ length: 50 }, () => items.log()) }));
    await device.inbox.next((f) => f.type === 'ack', 'the first ack');
    expect((await api.delete(`/v1/devices/${device.deviceId}`)).status).toBe(200);
    expect((await closed).code).toBe(4410);
    const itemsLeft = async () => Number((await db.selectFrom('items').select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', profile.id).where('device_id', '=', device.deviceId).executeTakeFirstOrThrow()).n);
    expect(await itemsLeft()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await itemsLeft()).toBe(0);
  });

  it('answers the latest SDK versions without auth', async () => {
    const anonymous = apiClient(server.url);
    expect((await anonymous.get('/v1/version/ios-sdk-version')).body).toEqual({ version: '1.5.0' });
    expect((await anonymous.get('/v1/version/android-sdk-version')).body).toEqual({ version: '1.1.0' });
  });
});
