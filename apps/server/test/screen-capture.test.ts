import crypto from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCREEN_CAPTURE_TEXTS, type ServerFrame } from '@spyglass/protocol';
import { apiClient, describeApi, signUp, startTestServer, useTwoNodes, type TestServer } from './helpers';
import { connectDevice, connectViewer, type DeviceClient } from './live-clients';
import { REDIS_URL, probeRedis } from './support/redis';

const TURN_SECRET = 'turn-shared-secret';
const SDP = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
const candidate = (n: number) => ({ candidate: `candidate:${n} 1 udp 2122260223 127.0.0.1 5${n} typ host`, sdpMid: '0', sdpMLineIndex: 0 });

describeApi('screen capture', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: {
        screenCapture: { stunUrls: ['stun:127.0.0.1:3478'], turnUrls: ['turn:127.0.0.1:3478?transport=udp'], turnSecret: TURN_SECRET, turnCredentialTtlS: 600 },
      },
    });
  });
  afterAll(() => server?.close());

  /** An account with a device and two of its dashboards connected, both watching the device. */
  async function capturingAccount() {
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey);
    const viewers = await Promise.all([connectViewer(server.url, account.token), connectViewer(server.url, account.token)]);
    for (const viewer of viewers) await viewer.subscribe(device.deviceId);
    return { ...account, device, viewers };
  }

  it('hands out time-limited TURN REST credentials that the shared secret verifies', async () => {
    expect((await apiClient(server.url).get('/v1/screen-capture/turn')).status).toBe(401);
    const { api, profile } = await signUp(server.url);
    const before = Math.floor(Date.now() / 1000);
    const res = await api.get('/v1/screen-capture/turn');
    expect(res.status).toBe(200);
    const [stun, turn] = res.body.iceServers;
    expect(stun).toEqual({ urls: ['stun:127.0.0.1:3478'] });
    expect(turn.urls).toEqual(['turn:127.0.0.1:3478?transport=udp']);
    const [expiry, user] = turn.username.split(':');
    expect(user).toBe(profile.id);
    expect(Number(expiry)).toBeGreaterThanOrEqual(before + 600);
    expect(Number(expiry)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    expect(turn.credential).toBe(crypto.createHmac('sha1', TURN_SECRET).update(turn.username).digest('base64'));
    expect(JSON.stringify(res.body)).not.toContain(TURN_SECRET);
  });

  it('relays offer, answer and candidates between the device and the viewer that started it, and stops', async () => {
    const { api, device, viewers: [viewer, other] } = await capturingAccount();
    const start = await api.get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${viewer!.connectionId}`);
    expect(start.status).toBe(200);
    const command = device.commands.find((c) => c.name === 'start_screen_capture');
    expect(command?.args).toMatchObject({ viewerId: viewer!.connectionId, iceServers: [{ urls: ['stun:127.0.0.1:3478'] }, { username: expect.any(String) }] });

    device.ws.send(JSON.stringify({ type: 'offer', viewerId: viewer!.connectionId, sdp: SDP }));
    device.ws.send(JSON.stringify({ type: 'candidate', viewerId: viewer!.connectionId, candidate: candidate(1) }));
    expect(await viewer!.next('offer')).toEqual({ type: 'offer', deviceId: device.deviceId, sdp: SDP });
    expect(await viewer!.next('candidate')).toEqual({ type: 'candidate', deviceId: device.deviceId, candidate: candidate(1) });

    viewer!.send({ type: 'answer', target: device.deviceId, sdp: SDP });
    viewer!.send({ type: 'candidate', target: device.deviceId, candidate: candidate(2) });
    // The server names the viewer: the device answers it, not whoever the message claims to be.
    expect(await frameOfDevice(device, 'answer', viewer!.connectionId)).toEqual({ type: 'answer', viewerId: viewer!.connectionId, sdp: SDP });
    expect(await frameOfDevice(device, 'candidate', viewer!.connectionId)).toEqual({ type: 'candidate', viewerId: viewer!.connectionId, candidate: candidate(2) });

    // The other dashboard of the account got none of this viewer's signalling.
    await other!.subscribe(device.deviceId);
    expect(other!.inbox.all.filter((m) => m.type === 'offer' || m.type === 'candidate')).toEqual([]);

    const stop = await api.get(`/v1/devices/${device.deviceId}/stop-capture-screen?viewerId=${viewer!.connectionId}`);
    expect(stop.status).toBe(200);
    expect(device.commands.at(-1)).toMatchObject({ name: 'stop_screen_capture', args: { viewerId: viewer!.connectionId } });
    device.ws.send(JSON.stringify({ type: 'screen_capture_ended', viewerId: viewer!.connectionId }));
    expect(await viewer!.next('screen_capture_ended')).toEqual({ type: 'screen_capture_ended', deviceId: device.deviceId, message: 'The screen capture ended' });
    await device.close();
  });

  it('gives each viewer its own session and tells the device\'s errors with the spec\'s texts', async () => {
    const { api, device, viewers: [first, second] } = await capturingAccount();
    for (const viewer of [first!, second!]) {
      expect((await api.get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`)).status).toBe(200);
    }
    device.ws.send(JSON.stringify({ type: 'offer', viewerId: second!.connectionId, sdp: `${SDP}a=second\r\n` }));
    device.ws.send(JSON.stringify({ type: 'screen_capture_permission_denied', viewerId: first!.connectionId }));
    expect((await second!.next('offer')).sdp).toContain('a=second');
    expect(await first!.next('screen_capture_permission_denied')).toMatchObject({ deviceId: device.deviceId, message: SCREEN_CAPTURE_TEXTS.permissionRequired });
    device.ws.send(JSON.stringify({ type: 'screen_capture_not_supported', viewerId: second!.connectionId }));
    expect(await second!.next('screen_capture_not_supported')).toMatchObject({ message: SCREEN_CAPTURE_TEXTS.notSupported });
    expect(first!.inbox.all.some((m) => m.type === 'offer')).toBe(false);

    // The broadcaster goes away: whoever watches the device is told.
    await device.close();
    expect(await first!.next('screen_capture_ended')).toMatchObject({ deviceId: device.deviceId, message: 'The device disconnected' });
    expect(await second!.next('screen_capture_ended')).toMatchObject({ deviceId: device.deviceId, message: 'The device disconnected' });
  });

  it('refuses a device that cannot share its screen, an offline device, and a call without viewerId', async () => {
    const account = await signUp(server.url);
    const iphone = await connectDevice(server.url, account.profile.apiKey, { device: { isScreenShareEnabled: false } });
    const viewer = await connectViewer(server.url, account.token);
    const refused = await account.api.get(`/v1/devices/${iphone.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: SCREEN_CAPTURE_TEXTS.notSupported });
    expect(iphone.commands).toEqual([]);
    expect((await account.api.get(`/v1/devices/${iphone.deviceId}/start-capture-screen`)).status).toBe(400);

    const refusing = await connectDevice(server.url, account.profile.apiKey, { answer: () => ({ ok: false, error: SCREEN_CAPTURE_TEXTS.notSupported }) });
    const failed = await account.api.get(`/v1/devices/${refusing.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: SCREEN_CAPTURE_TEXTS.notSupported });

    await refusing.close();
    const offline = await account.api.get(`/v1/devices/${refusing.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`);
    expect(offline.status).toBe(409);
    expect(offline.body).toEqual({ error: 'Device is offline' });
    // An answer to a broadcaster nobody holds is answered, not dropped silently.
    viewer.send({ type: 'answer', target: refusing.deviceId, sdp: SDP });
    expect(await viewer.next('screen_capture_unavailable')).toMatchObject({ deviceId: refusing.deviceId, message: 'The device is offline' });
    await iphone.close();
    await viewer.close();
  });

  it('lets another account\'s viewer neither start, nor receive, nor answer a capture', async () => {
    const { api, device, viewers: [viewer] } = await capturingAccount();
    const stranger = await signUp(server.url);
    const spy = await connectViewer(server.url, stranger.token);
    await spy.subscribe(device.deviceId);

    // Start and stop: the device is not the stranger's.
    for (const call of ['start-capture-screen', 'stop-capture-screen']) {
      const res = await stranger.api.get(`/v1/devices/${device.deviceId}/${call}?viewerId=${spy.connectionId}`);
      expect(res.status, call).toBe(404);
    }
    expect(device.commands).toEqual([]);

    // Receive: the owner starts a capture addressed to the stranger's connection; the device offers to it.
    expect((await api.get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${spy.connectionId}`)).status).toBe(200);
    device.ws.send(JSON.stringify({ type: 'offer', viewerId: spy.connectionId, sdp: SDP }));
    device.ws.send(JSON.stringify({ type: 'candidate', viewerId: spy.connectionId, candidate: candidate(3) }));
    device.ws.send(JSON.stringify({ type: 'offer', viewerId: viewer!.connectionId, sdp: SDP }));
    await viewer!.next('offer');

    // Answer: the stranger names the owner's device as the broadcaster.
    spy.send({ type: 'answer', target: device.deviceId, sdp: SDP });
    spy.send({ type: 'candidate', target: device.deviceId, candidate: candidate(4) });
    expect(await spy.next('screen_capture_unavailable')).toMatchObject({ deviceId: device.deviceId });
    await spy.next('screen_capture_unavailable');
    // Ordered behind everything above on the device's socket: a ping answered by the server.
    device.ws.send(JSON.stringify({ type: 'ping', t: 1 }));
    await device.inbox.next((f) => f.type === 'pong', 'pong');
    expect(device.inbox.all.filter((f) => f.type === 'answer' || f.type === 'candidate')).toEqual([]);
    await spy.subscribe(null);
    expect(spy.inbox.all.filter((m) => m.type === 'offer' || m.type === 'candidate')).toEqual([]);
    await spy.close();
    await device.close();
  });

  it('refuses malformed signalling with a reason, without closing or disturbing the other viewers', async () => {
    const { api, device, viewers: [watching, sloppy] } = await capturingAccount();
    expect((await api.get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${watching!.connectionId}`)).status).toBe(200);
    device.ws.send(JSON.stringify({ type: 'offer', viewerId: watching!.connectionId, sdp: SDP }));
    await watching!.next('offer');

    const malformed = [
      { type: 'answer', target: device.deviceId },
      { type: 'answer', target: device.deviceId, sdp: 42 },
      { type: 'answer', target: device.deviceId, sdp: 'x'.repeat(40_000) },
      { type: 'candidate', target: device.deviceId, candidate: { candidate: 7 } },
      { type: 'candidate', candidate: candidate(5) },
    ];
    for (const message of malformed) sloppy!.send(message);
    for (const message of malformed) {
      const refused = await sloppy!.next('screen_capture_refused');
      expect(refused, JSON.stringify(message).slice(0, 80)).toMatchObject({ message: expect.stringMatching(new RegExp(`^Invalid ${message.type} message: `)) });
    }
    // A device frame that breaks the rules is refused by the device path, the session goes on.
    device.ws.send(JSON.stringify({ type: 'offer', viewerId: watching!.connectionId }));
    const error = await device.inbox.next((f) => f.type === 'error', 'error frame');
    expect(error).toMatchObject({ code: 'bad_frame' });

    expect(sloppy!.ws.readyState).toBe(WebSocket.OPEN);
    device.ws.send(JSON.stringify({ type: 'candidate', viewerId: watching!.connectionId, candidate: candidate(6) }));
    expect((await watching!.next('candidate')).candidate).toEqual(candidate(6));
    watching!.send({ type: 'answer', target: device.deviceId, sdp: SDP });
    expect(await frameOfDevice(device, 'answer', watching!.connectionId)).toMatchObject({ sdp: SDP });
    expect(watching!.inbox.all.some((m) => m.type === 'screen_capture_refused')).toBe(false);
    await device.close();
  });

  it('tells the device when a viewer it streams to closes its connection', async () => {
    const { api, device, viewers: [leaving, staying] } = await capturingAccount();
    for (const viewer of [leaving!, staying!]) {
      expect((await api.get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`)).status).toBe(200);
      viewer.send({ type: 'answer', target: device.deviceId, sdp: SDP });
      await frameOfDevice(device, 'answer', viewer.connectionId);
    }
    await leaving!.close();
    await expect.poll(() => device.commands.filter((c) => c.name === 'stop_screen_capture').map((c) => c.args)).toEqual([{ viewerId: leaving!.connectionId }]);
    await device.close();
  });
});

const redisAvailable = await probeRedis();

describeApi('screen capture across two nodes over Redis', () => {
  const { nodeA, nodeB } = useTwoNodes({ config: { redisUrl: REDIS_URL } }, { skip: !redisAvailable });

  it.skipIf(!redisAvailable)('relays a capture between a device on node A and a viewer on node B, and nobody else\'s', async () => {
    const account = await signUp(nodeA.url);
    const device = await connectDevice(nodeA.url, account.profile.apiKey);
    const viewer = await connectViewer(nodeB.url, account.token);
    await viewer.subscribe(device.deviceId);
    const start = await apiClient(nodeB.url, account.token).get(`/v1/devices/${device.deviceId}/start-capture-screen?viewerId=${viewer.connectionId}`);
    expect(start.status).toBe(200);

    device.ws.send(JSON.stringify({ type: 'offer', viewerId: viewer.connectionId, sdp: SDP }));
    device.ws.send(JSON.stringify({ type: 'candidate', viewerId: viewer.connectionId, candidate: candidate(7) }));
    expect(await viewer.next('offer')).toEqual({ type: 'offer', deviceId: device.deviceId, sdp: SDP });
    expect((await viewer.next('candidate')).candidate).toEqual(candidate(7));
    viewer.send({ type: 'answer', target: device.deviceId, sdp: SDP });
    viewer.send({ type: 'candidate', target: device.deviceId, candidate: candidate(8) });
    expect(await frameOfDevice(device, 'answer', viewer.connectionId)).toMatchObject({ sdp: SDP });
    expect(await frameOfDevice(device, 'candidate', viewer.connectionId)).toMatchObject({ candidate: candidate(8) });

    // Another account's viewer on node B names the device: nothing reaches it.
    const stranger = await signUp(nodeB.url);
    const spy = await connectViewer(nodeB.url, stranger.token);
    spy.send({ type: 'answer', target: device.deviceId, sdp: SDP });
    expect(await spy.next('screen_capture_unavailable')).toMatchObject({ deviceId: device.deviceId });

    await device.close();
    expect(await viewer.next('screen_capture_ended')).toMatchObject({ message: 'The device disconnected' });
    expect(device.inbox.all.filter((f) => f.type === 'answer')).toHaveLength(1);
    await viewer.close();
    await spy.close();
  });
});

/** The next signalling frame of one type the server wrote to the device for one viewer. */
function frameOfDevice<T extends ServerFrame['type']>(device: DeviceClient, type: T, viewerId: string) {
  return device.inbox.next((f): f is Extract<ServerFrame, { type: T }> => f.type === type && (f as { viewerId?: string }).viewerId === viewerId, `${type} for ${viewerId}`);
}
