import { expect, it } from 'vitest';
import { DeviceMocks, INTERCEPTED_HEADER, MockedRoute, type CommandFrame, type MockDataInput } from '@spyglass/protocol';
import { describeApi, useTestServer } from './helpers';
import { connectDevice, items, signUpWithDevice, type DeviceClient } from './live-clients';

/** Polls until `check` answers a value (devices receive their mocks asynchronously). */
async function waitFor<T>(check: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The newest `mocks` set a test device received that satisfies `accept`. */
function mocksReceived(device: DeviceClient, accept: (mocks: DeviceMocks) => boolean): Promise<DeviceMocks> {
  return waitFor(() => {
    const sets = device.commands.filter((c: CommandFrame) => c.name === 'mocks').map((c) => DeviceMocks.parse(c.args));
    const last = sets.at(-1);
    return last && accept(last) ? last : undefined;
  }, 'a mocks command');
}

const staticMock = (overrides: Partial<MockDataInput> = {}): MockDataInput => ({
  mode: 'default', responseMode: 'static', method: 'GET', mockedUrl: 'https://api.example.com/todos/*', statusCode: 200,
  headers: [{ key: 'Content-Type', value: 'application/json' }], body: '[{"id":1}]', ...overrides,
});

describeApi('mocks API', () => {
  const server = useTestServer();

  it('creates, lists (sorted), updates and deletes mocked routes', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const created = await api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: staticMock() });
    expect(created.status).toBe(201);
    const route = MockedRoute.parse(created.body);
    // A new route is disabled unless said otherwise (spec 002 §4).
    expect(route).toMatchObject({ deviceId: device.deviceId, isEnabled: false, tags: [], description: '', areLiveUpdatesEnabled: false });
    expect(route.mockData).toMatchObject({ mockedUrl: 'https://api.example.com/todos/*', statusCode: 200, delayMs: 0, consoleLog: [], isEnabled: false });

    const second = await api.post('/v1/mocked-routes', { deviceId: device.deviceId, isEnabled: true, tags: ['a', '  ', 'b'], mockData: staticMock({ method: 'POST', mockedUrl: '/a' }) });
    expect(second.body).toMatchObject({ isEnabled: true, tags: ['a', 'b'] });

    const list = await api.get(`/v1/mocked-routes?deviceId=${device.deviceId}`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: MockedRoute) => r.id)).toEqual([second.body.id, route.id]);
    const byMethod = await api.get(`/v1/mocked-routes?deviceId=${device.deviceId}&sort=method&order=asc`);
    expect(byMethod.body.map((r: MockedRoute) => r.mockData.method)).toEqual(['GET', 'POST']);

    const updated = await api.put(`/v1/mocked-routes/${route.id}`, {
      isEnabled: true, tags: ['todos'], description: 'All todos', areLiveUpdatesEnabled: true, updatedAt: '2020-01-01T00:00:00.000Z',
      mockData: staticMock({ statusCode: 418, consoleLog: [{ time: new Date().toISOString(), message: 'from the editor' }] }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ isEnabled: true, tags: ['todos'], description: 'All todos', areLiveUpdatesEnabled: true, mockData: { statusCode: 418, isEnabled: true, consoleLog: [] } });
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThan(Date.parse('2021-01-01'));

    const partial = await api.put(`/v1/mocked-routes/${route.id}`, { isEnabled: false });
    expect(partial.body).toMatchObject({ isEnabled: false, description: 'All todos', mockData: { statusCode: 418, isEnabled: false } });

    const all = await api.get('/v1/mock-apis');
    expect(all.body.map((r: MockedRoute) => r.id).sort()).toEqual([route.id, second.body.id].sort());

    expect((await api.delete(`/v1/mocked-routes/${route.id}`)).body).toEqual({ success: true });
    expect((await api.delete(`/v1/mocked-routes/${route.id}`)).status).toBe(404);
    expect((await api.put(`/v1/mocked-routes/${route.id}`, { isEnabled: true })).body).toEqual({ error: 'Mocked route not found' });
    await device.close();
  });

  it('refuses bad input with clear messages and stores nothing', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const create = (mockData: unknown, extra: Record<string, unknown> = {}) => api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData, ...extra });
    const cases: Array<[unknown, Record<string, unknown>, RegExp]> = [
      [staticMock({ mockedUrl: '' }), {}, /^Mocked URL is required$/],
      [{ ...staticMock(), mockedUrl: undefined }, {}, /Mocked URL is required/],
      [{ ...staticMock(), statusCode: undefined }, {}, /Status code is required/],
      [staticMock({ statusCode: 99 }), {}, /Status code must be an integer from 100 to 599/],
      [staticMock({ statusCode: 600 }), {}, /Status code must be an integer from 100 to 599/],
      [staticMock({ statusCode: 200.5 }), {}, /Status code must be an integer/],
      [staticMock(), { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, /at most 10 tags/],
      [staticMock({ body: 'x'.repeat(600 * 1024) }), {}, /at most 524288 characters/],
      [staticMock({ mockedUrl: 'https://api.example.com/a b' }), {}, /^Invalid URL pattern/],
      [staticMock({ mockedUrl: 'ftp://files.example.com/*' }), {}, /^Invalid URL pattern/],
      [staticMock({ responseMode: 'dynamic', code: '  ' }), {}, /^Code is required$/],
      [staticMock({ responseMode: 'dynamic', code: 'function handler( {' }), {}, /^SyntaxError/],
      [staticMock({ responseMode: 'dynamic', code: 'throw new Error("at load")' }), {}, /^Error: at load/],
      [staticMock({ responseMode: 'dynamic', code: 'while (true) {}' }), {}, /ran longer than/],
      [staticMock({ mode: 'mapRemote', mapRemoteUrl: 'localhost' }), {}, /^Map remote URL must be an absolute http or https URL$/],
      [staticMock({ method: 'TRACE' as never }), {}, /./],
    ];
    for (const [mockData, extra, message] of cases) {
      const res = await create(mockData, extra);
      expect(res.status, JSON.stringify(mockData).slice(0, 120)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    // The enabled routes of one device travel in one frame: 8 MB in all.
    const big = staticMock({ body: 'x'.repeat(500 * 1024) });
    for (let i = 0; i < 16; i++) expect((await create(big, { isEnabled: true })).status).toBe(201);
    const over = await create(big, { isEnabled: true });
    expect(over).toMatchObject({ status: 400, body: { error: 'The mocks of a device may hold at most 8 MB in all' } });
    expect((await create(big, { isEnabled: false })).status).toBe(201);
    const listed = (await api.get(`/v1/mocked-routes?deviceId=${device.deviceId}`)).body as MockedRoute[];
    expect(listed).toHaveLength(17);
    expect((await api.put(`/v1/mocked-routes/${listed[0]!.id}`, { isEnabled: true })).status).toBe(400);
    for (const r of listed) await api.delete(`/v1/mocked-routes/${r.id}`);

    const dynamic = await create(staticMock({ responseMode: 'dynamic', code: 'function handler( {' }));
    expect(dynamic.body.codeError).toBe(true);
    expect((await api.get(`/v1/mocked-routes?deviceId=${device.deviceId}`)).body).toEqual([]);
    expect((await api.post('/v1/mocked-routes', { deviceId: 'no-such-device', mockData: staticMock() })).status).toBe(404);
    await device.close();
  }, 90_000); // 17 routes of 500 KB and a handler run to its time limit: slow on a loaded machine

  it("keeps every account's routes and items to itself", async () => {
    const a = await signUpWithDevice(server.url);
    const b = await signUpWithDevice(server.url);
    const item = items.network({ url: 'https://api.example.com/todos/1' });
    await a.device.sendItems([item]);
    const route = (await a.api.post('/v1/mocked-routes', { deviceId: a.device.deviceId, isEnabled: true, mockData: staticMock() })).body as MockedRoute;

    expect((await b.api.get(`/v1/mocked-routes?deviceId=${a.device.deviceId}`)).status).toBe(404);
    expect((await b.api.post('/v1/mocked-routes', { deviceId: a.device.deviceId, mockData: staticMock() })).status).toBe(404);
    expect((await b.api.put(`/v1/mocked-routes/${route.id}`, { isEnabled: false })).status).toBe(404);
    expect((await b.api.delete(`/v1/mocked-routes/${route.id}`)).status).toBe(404);
    expect((await b.api.post(`/v1/mocked-routes/${route.id}/publish`)).status).toBe(404);
    expect((await b.api.post(`/v1/mocked-routes/${route.id}/simulate`, { request: { url: 'https://api.example.com/todos/1' } })).status).toBe(404);
    expect((await b.api.get('/v1/mock-apis')).body).toEqual([]);
    const mockBody = { isMocked: true, statusCode: 418, method: 'POST', headers: {}, body: '', url: 'https://api.example.com/todos/1', mockedUrl: '' };
    expect((await b.api.put(`/v1/devices/${a.device.deviceId}/requests/${item.id}/mock`, mockBody)).status).toBe(404);
    expect((await b.api.put(`/v1/devices/${b.device.deviceId}/requests/${item.id}/mock`, mockBody)).status).toBe(404);

    expect((await a.api.get(`/v1/mocked-routes/${route.id}`)).status).toBe(404); // no such route: lists only
    expect((await a.api.get(`/v1/mocked-routes?deviceId=${a.device.deviceId}`)).body).toHaveLength(1);
    await a.device.close();
    await b.device.close();
  });

  it('sends the enabled routes and item mocks to the device on welcome and on every change', async () => {
    const { api, profile } = await signUpWithDevice(server.url);
    const deviceId = `dev-mocks-${Date.now()}`;
    let device = await connectDevice(server.url, profile.apiKey, { deviceId, answer: (c) => (c.name === 'mocks' ? { ok: true, data: { routes: (c.args as DeviceMocks).routes.length, itemMocks: (c.args as DeviceMocks).itemMocks.length } } : { ok: true }) });
    const route = (await api.post('/v1/mocked-routes', { deviceId, isEnabled: true, mockData: staticMock({ delayMs: 250 }) })).body as MockedRoute;
    const withRoute = await mocksReceived(device, (m) => m.routes.length === 1);
    expect(withRoute.routes[0]).toMatchObject({ id: route.id, createdAt: route.createdAt, mockData: { mockedUrl: 'https://api.example.com/todos/*', delayMs: 250 } });
    // Nothing was sent at the welcome: the device had no mocks then.
    expect(device.commands.filter((c) => c.name === 'mocks')).toHaveLength(1);

    const item = items.network({ url: 'https://api.example.com/users?page=1' });
    await device.sendItems([item]);
    const mocked = await api.put(`/v1/devices/${deviceId}/requests/${item.id}/mock`, {
      isMocked: true, statusCode: 418, method: 'POST', headers: { 'X-Teapot': 'yes', [INTERCEPTED_HEADER]: 'forged' }, body: '{"teapot":true}',
      url: 'https://api.example.com/users?page=1', mockedUrl: 'https://api.example.com/users\\?page=1', delayMs: 0, metaData: { from: 'test' },
    });
    expect(mocked.status).toBe(200);
    expect(mocked.body).toMatchObject({ id: item.id, isMocked: true, mock: { enabled: true }, mockData: { statusCode: 418, headers: { [INTERCEPTED_HEADER]: item.id, 'X-Teapot': 'yes' } } });
    const withItem = await mocksReceived(device, (m) => m.itemMocks.length === 1);
    expect(withItem.itemMocks[0]).toMatchObject({ itemId: item.id, method: 'POST', url: 'https://api.example.com/users\\?page=1', statusCode: 418, body: '{"teapot":true}', headers: { [INTERCEPTED_HEADER]: item.id } });

    // The item, sent again by the device (its completion), keeps its mock.
    await device.sendItems([item]);
    expect((await api.get(`/v1/requests/${item.id}`)).body).toMatchObject({ isMocked: true, mockData: { statusCode: 418 } });

    const published = await api.post(`/v1/mocked-routes/${route.id}/publish`);
    expect(published.body).toEqual({ success: true, routes: 1, itemMocks: 1 });

    await api.put(`/v1/devices/${deviceId}/requests/${item.id}/mock`, { ...mocked.body.mockData, isMocked: false });
    await mocksReceived(device, (m) => m.itemMocks.length === 0 && m.routes.length === 1);
    await api.put(`/v1/mocked-routes/${route.id}`, { isEnabled: false });
    await mocksReceived(device, (m) => m.routes.length === 0);

    // Reconnecting: the welcome is followed by the current set.
    await api.put(`/v1/mocked-routes/${route.id}`, { isEnabled: true });
    await device.close();
    expect((await api.post(`/v1/mocked-routes/${route.id}/publish`)).body).toEqual({ error: 'Device is offline' });
    device = await connectDevice(server.url, profile.apiKey, { deviceId });
    const again = await mocksReceived(device, () => true);
    expect(again.routes.map((r) => r.id)).toEqual([route.id]);
    await device.close();
  });

  it('reports a device that does not apply mocks when publishing', async () => {
    const { api, profile } = await signUpWithDevice(server.url);
    const old = await connectDevice(server.url, profile.apiKey, { answer: (c) => (c.name === 'mocks' ? { ok: false, error: 'The mocks command is not supported by this SDK version' } : { ok: true }) });
    const route = (await api.post('/v1/mocked-routes', { deviceId: old.deviceId, isEnabled: true, mockData: staticMock() })).body as MockedRoute;
    const published = await api.post(`/v1/mocked-routes/${route.id}/publish`);
    expect(published.status).toBe(409);
    expect(published.body).toEqual({ error: 'The device did not apply the mocks: The mocks command is not supported by this SDK version' });
    await old.close();
  });

  it('refuses item mocks for missing or non-network items and bad mock data', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const log = items.log('hello');
    const network = items.network();
    await device.sendItems([log, network]);
    const body = { isMocked: true, statusCode: 200, method: 'GET', headers: {}, body: '', url: 'https://api.example.com/x', mockedUrl: '' };
    expect((await api.put(`/v1/devices/${device.deviceId}/requests/${log.id}/mock`, body)).body).toEqual({ error: 'Only network requests can be mocked' });
    expect((await api.put(`/v1/devices/${device.deviceId}/requests/nope/mock`, body)).body).toEqual({ error: 'Request not found' });
    expect((await api.put(`/v1/devices/${device.deviceId}/requests/${network.id}/mock`, { ...body, statusCode: 700 })).status).toBe(400);
    expect((await api.put(`/v1/devices/${device.deviceId}/requests/${network.id}/mock`, { ...body, mockedUrl: 'not a pattern' })).body.error).toMatch(/^Invalid URL pattern/);
    await device.close();
  });

  it('simulates static, dynamic and mapRemote routes and keeps the console log', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const code = `function handler(req) {
      console.log('offset', req.query.offset);
      const offset = Number(req.query.offset || 0);
      return { status: 200, body: { items: [offset + 1, offset + 2] } };
    }`;
    const dynamic = (await api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: staticMock({ responseMode: 'dynamic', code, mockedUrl: 'https://api.example.com/todos?offset=*' }) })).body as MockedRoute;
    const simulated = await api.post(`/v1/mocked-routes/${dynamic.id}/simulate`, { request: { url: 'https://api.example.com/todos?offset=10', method: 'GET', headers: {}, body: '' } });
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({
      matches: true, url: 'https://api.example.com/todos?offset=10', pattern: 'https://api.example.com/todos?offset=*',
      response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"items":[11,12]}' },
      logs: [{ message: 'offset 10' }],
    });
    expect(simulated.body.explanation).toMatch(/^Answers GET requests to https:\/\/api\.example\.com\/todos\?offset=\*/);

    const other = await api.post(`/v1/mocked-routes/${dynamic.id}/simulate`, { request: { url: 'https://api.example.com/users', method: 'GET' } });
    expect(other.body).toMatchObject({ matches: false, url: 'https://api.example.com/users', pattern: 'https://api.example.com/todos?offset=*' });

    const unsaved = await api.post(`/v1/mocked-routes/${dynamic.id}/simulate`, {
      request: { url: 'https://api.example.com/todos?offset=1' },
      mockData: staticMock({ responseMode: 'dynamic', code: 'function handler() { throw new RangeError("nope"); }', mockedUrl: 'https://api.example.com/todos?offset=*' }),
    });
    expect(unsaved.body.error).toMatch(/^RangeError: nope/);

    const log = (await api.get(`/v1/mocked-routes?deviceId=${device.deviceId}`)).body[0] as MockedRoute;
    expect(log.mockData.consoleLog.map((e) => e.message)).toEqual(['offset 10', 'offset undefined', expect.stringMatching(/^Error: RangeError: nope/)]);
    expect(log.mockData.code).toBe(code);

    const map = (await api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: staticMock({ mode: 'mapRemote', mockedUrl: 'https://api.example.com/v1/*', mapRemoteUrl: 'http://localhost:3000/v2' }) })).body as MockedRoute;
    const mapped = await api.post(`/v1/mocked-routes/${map.id}/simulate`, { request: { url: 'https://api.example.com/v1/users?x=1' } });
    expect(mapped.body).toMatchObject({ matches: true, mappedUrl: 'http://localhost:3000/v2/users?x=1' });

    const fixed = (await api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: staticMock({ statusCode: 201, body: 'done' }) })).body as MockedRoute;
    const answer = await api.post(`/v1/mocked-routes/${fixed.id}/simulate`, { request: { url: 'https://api.example.com/todos/3', body: { any: 'json' } } });
    expect(answer.body).toMatchObject({ matches: true, response: { status: 201, headers: { 'Content-Type': 'application/json' }, body: 'done' } });
    expect((await api.post(`/v1/mocked-routes/${fixed.id}/simulate`, { request: {} })).status).toBe(400);
    await device.close();
  });

  it('stops runaway handlers and keeps serving meanwhile', async () => {
    const { api, device } = await signUpWithDevice(server.url);
    const route = (await api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: staticMock({ mockedUrl: '/x' }) })).body as MockedRoute;
    const simulate = (code: string) => api.post(`/v1/mocked-routes/${route.id}/simulate`, {
      request: { url: 'https://api.example.com/x' }, mockData: staticMock({ mockedUrl: '/x', responseMode: 'dynamic', code }),
    });
    const cases: Array<[string, RegExp]> = [
      ['function handler() { while (true) {} }', /ran longer than 50 ms/],
      // One native call that runs long between interrupt checks: the worker is terminated.
      ['function handler() { const a = []; while (true) a.push(new Array(100000).fill(1)); }', /ran longer than|of memory/],
      ['function handler() { const a = []; while (true) a.push({ n: a.length }); }', /ran longer than|of memory/],
      ['function handler() { return { body: String(process.env) }; }', /^ReferenceError: .*process/],
      ['function handler() { return { body: require("child_process") }; }', /^ReferenceError: .*require/],
      ['function handler() { return fetch("http://127.0.0.1:1/"); }', /^ReferenceError: .*fetch/],
      ['function handler() { return "garbage"; }', /must return an object/],
    ];
    for (const [code, error] of cases) {
      const running = simulate(code);
      // The server answers other calls while the handler runs.
      const health = await api.get('/v1/mock-apis');
      expect(health.status).toBe(200);
      const res = await running;
      expect(res.status, code).toBe(200);
      expect(res.body.error, code).toMatch(error);
    }
    const fine = await simulate('function handler() { return { body: "ok" }; }');
    expect(fine.body.response).toMatchObject({ status: 200, body: 'ok' });
    await device.close();
  });
});
