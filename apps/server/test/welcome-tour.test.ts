import { expect, it } from 'vitest';
import { TOUR_EVENTS, type WelcomeTour } from '@spyglass/protocol';
import { describeApi, signUp, useTestServer } from './helpers';
import { connectDevice, items } from './live-clients';

describeApi('welcome tour: steps complete themselves', () => {
  const server = useTestServer();

  const statusOf = (tours: WelcomeTour[], event: keyof typeof TOUR_EVENTS) => {
    const { tourId, stepId } = TOUR_EVENTS[event];
    return tours.find((t) => t.id === tourId)!.steps.find((s) => s.id === stepId)!.status;
  };

  it('completes Send first Log, Take screenshot, Send network request and Send request again as the device sends them', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    await device.sendItems([items.log('first')]);
    await server.app.ctx.tourProgress.settled(profile.id);
    let tours = (await api.get('/v1/user/welcome-tour')).body as WelcomeTour[];
    expect(statusOf(tours, 'logReceived')).toBe('completed');
    expect(statusOf(tours, 'screenshotReceived')).toBe('pending');
    expect(statusOf(tours, 'networkRequestReceived')).toBe('pending');

    await device.sendItems([items.screenshot(), items.network()]);
    await server.app.ctx.tourProgress.settled(profile.id);
    tours = (await api.get('/v1/user/welcome-tour')).body;
    expect(statusOf(tours, 'screenshotReceived')).toBe('completed');
    expect(statusOf(tours, 'networkRequestReceived')).toBe('completed');
    expect(statusOf(tours, 'mockedRequestReceived')).toBe('pending');

    await device.sendItems([{ ...items.network(), isMocked: true }]);
    await server.app.ctx.tourProgress.settled(profile.id);
    tours = (await api.get('/v1/user/welcome-tour')).body;
    expect(statusOf(tours, 'mockedRequestReceived')).toBe('completed');
    const step = tours.find((t) => t.id === 'BASIC_TUTORIAL')!.steps[0]!;
    expect(Date.parse(step.completedAt!)).toBeGreaterThan(Date.now() - 60_000);
    await device.close();
  });

  it('completes Enable Mock when a mock of a captured request is turned on, and only for its own account', async () => {
    const owner = await signUp(server.url);
    const other = await signUp(server.url);
    const device = await connectDevice(server.url, owner.profile.apiKey);
    const network = items.network();
    await device.sendItems([network]);
    const mock = { isMocked: true, statusCode: 201, method: 'POST', headers: {}, body: '{"mocked":true}', url: 'https://api.example.com/users?page=1', mockedUrl: '', delayMs: 0 };
    const res = await owner.api.put(`/v1/devices/${device.deviceId}/requests/${network.id}/mock`, mock);
    expect(res.status).toBe(200);
    await server.app.ctx.tourProgress.settled(owner.profile.id);
    expect(statusOf((await owner.api.get('/v1/user/welcome-tour')).body, 'mockEnabled')).toBe('completed');
    expect(statusOf((await other.api.get('/v1/user/welcome-tour')).body, 'mockEnabled')).toBe('pending');
    await device.close();
  });

  it('completes a step again after the user set it back to pending', async () => {
    const { api, profile } = await signUp(server.url);
    const device = await connectDevice(server.url, profile.apiKey);
    await device.sendItems([items.log('one')]);
    await server.app.ctx.tourProgress.settled(profile.id);
    const { stepId } = TOUR_EVENTS.logReceived;
    const toggled = await api.post('/v1/user/welcome-tour/step', { tourId: 'BASIC_TUTORIAL', stepId, stepData: { id: stepId, status: 'pending', completedAt: null } });
    expect(toggled.status).toBe(200);
    expect(statusOf((await api.get('/v1/user/welcome-tour')).body, 'logReceived')).toBe('pending');
    await device.sendItems([items.log('two')]);
    await server.app.ctx.tourProgress.settled(profile.id);
    expect(statusOf((await api.get('/v1/user/welcome-tour')).body, 'logReceived')).toBe('completed');
    await device.close();
  });
});
