import { expect, it } from 'vitest';
import { DEVICE_LIMIT, DEVICE_LIMIT_MESSAGE } from '@spyglass/protocol';
import { createSpyglass, memoryStorage } from '@spyglass/sdk';
import { registerDeviceOnHello } from '../src/repositories/devices.repository';
import { TestDevice } from './device-protocol-client';
import { describeApi, signUp, useTestServer } from './helpers';
import { connectViewer } from './live-clients';

describeApi('device gaps (issue 16)', () => {
  const server = useTestServer();

  it('tells the account’s dashboards when a device is refused at the device limit', async () => {
    const account = await signUp(server.url);
    for (let i = 0; i < DEVICE_LIMIT; i++) {
      const outcome = await registerDeviceOnHello(server.app.ctx.db, account.profile.id, `full-${i}`, { platform: 'ios' }, Date.now());
      expect(outcome.ok).toBe(true);
    }
    const viewer = await connectViewer(server.url, account.token);
    const extra = await TestDevice.connect(server.url);
    extra.hello(account.profile.apiKey, 'one-too-many');
    const told = await viewer.next('device_limit_reached', () => true);
    expect(told).toEqual({ type: 'device_limit_reached', deviceId: 'one-too-many', message: DEVICE_LIMIT_MESSAGE });
    expect(told.message).toBe('Maximum number of devices reached: Please contact support to increase your limit');
    await extra.closed;
    await viewer.close();
  });

  it('sends the breakpoint switch to the device, whose SDK exposes it', async () => {
    const { api, profile } = await signUp(server.url);
    const client = createSpyglass({
      serverUrl: server.url, apiKey: profile.apiKey, storage: memoryStorage(), device: { platform: 'ios' }, capture: { fetch: false, xhr: false, http: false },
    });
    try {
      await new Promise<void>((resolve) => client.on('welcome', () => resolve()));
      expect(client.breakpointEnabled).toBe(false);
      const heard = new Promise<boolean>((resolve) => client.on('breakpoint', resolve));
      const res = await api.post(`/v1/devices/${client.deviceId!}/breakpoint`, { breakpointEnabled: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: client.deviceId, breakpointEnabled: true });
      expect(await heard).toBe(true);
      expect(client.breakpointEnabled).toBe(true);
    } finally {
      await client.stop();
    }
  });
});
