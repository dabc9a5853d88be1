import { afterAll, beforeAll, expect, it } from 'vitest';
import { MOCK_LIMITS, type MockDataInput, type MockedRoute } from '@spyglass/protocol';
import { ACCOUNT_BUSY_MESSAGE } from '../src/sandbox/sandbox-pool';
import { describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, type DeviceClient } from './live-clients';

const dynamicMock = (code: string): MockDataInput => ({
  mode: 'default', responseMode: 'dynamic', method: 'GET', mockedUrl: 'https://api.example.com/*', statusCode: 200,
  headers: [], body: '', code,
});

const BOMBS = [
  'function handler() { const a = []; while (true) a.push(new Array(100000).fill(1)); }',
  'function handler() { while (true) {} }',
  "function handler() { let s = 'x'; for (;;) s = s + s; }",
  "function handler() { return { body: 'x'.repeat(12 * 1024 * 1024) }; }",
];

/**
 * Issue 12, defect 4: one user could stall everyone's mock handlers. Before the fix the server
 * ran every dynamic handler in one worker, first come first served: a victim's trivial simulate
 * behind 100 queued memory bombs waited 22.8 s (26 s in the red-team run).
 */
describeApi('sandbox pool: one account cannot stall the others', () => {
  let server: TestServer;
  const devices: DeviceClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close()));
    await server?.close();
  });

  async function accountWithRoute(code: string) {
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey);
    devices.push(device);
    const route = (await account.api.post('/v1/mocked-routes', { deviceId: device.deviceId, mockData: dynamicMock(code) })).body as MockedRoute;
    const simulate = (override?: string) => account.api.post(`/v1/mocked-routes/${route.id}/simulate`, {
      request: { url: 'https://api.example.com/x' }, ...(override ? { mockData: dynamicMock(override) } : {}),
    });
    return { simulate };
  }

  it("answers a victim's trivial simulate quickly while other accounts queue memory bombs and endless loops", async () => {
    const victim = await accountWithRoute('function handler() { return { status: 200, body: "ok" }; }');
    const attackers = await Promise.all([0, 1].map(() => accountWithRoute('function handler() { return {}; }')));
    // Both workers started, so the victim's figure is not a worker's start-up.
    await Promise.all(attackers.map((a) => a.simulate()));

    let settled = 0;
    const bombs = attackers.flatMap((attacker) => Array.from({ length: 100 }, (_, i) => attacker.simulate(BOMBS[i % BOMBS.length]).finally(() => {
      settled++;
    })));
    // The victim asks once the server has taken in the flood and the bombs wait in the pool, so
    // the figure is the pool's wait, not the HTTP backlog's.
    await expect.poll(() => settled, { timeout: 120_000, interval: 50 }).toBeGreaterThanOrEqual(150);
    const started = performance.now();
    const answer = await victim.simulate();
    const victimMs = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body.response).toMatchObject({ status: 200, body: 'ok' });

    const results = await Promise.all(bombs);
    // Each account may have one handler running and a few waiting; the rest are refused at once.
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body).toEqual({ error: ACCOUNT_BUSY_MESSAGE });
    // What ran was cut at its limits.
    for (const ran of results.filter((r) => r.status === 200)) expect(ran.body.error).toMatch(/ran longer than|of memory|string too long|the body has/);
    console.info(`victim's simulate behind 200 bombs of two accounts: ${Math.round(victimMs)} ms; ${refused.length} bombs refused`);
    // The jobs already running (each cut at its limits), never anyone's queue: first come first
    // served, the victim waited for the 50 bombs still queued (60-400 ms each). The bound leaves
    // room for a loaded machine.
    expect(victimMs).toBeLessThan(2000);
  });

  it("holds a handler's answer to a route's limits: header count, header size, body size", async () => {
    const { simulate } = await accountWithRoute('function handler() { return {}; }');
    const manyHeaders = await simulate('function handler() { const h = {}; for (let i = 0; i < 5000; i++) h["x-" + i] = "v"; return { headers: h }; }');
    expect(manyHeaders.body.error).toBe(`RangeError: a handler may return at most ${MOCK_LIMITS.maxHeaders} headers, not 5000`);
    const longValue = await simulate(`function handler() { return { headers: { "x-big": "v".repeat(${MOCK_LIMITS.maxHeaderValue + 1}) } }; }`);
    expect(longValue.body.error).toMatch(/^RangeError: the value of header "x-big" has more than/);
    const longName = await simulate(`function handler() { const h = {}; h["x".repeat(${MOCK_LIMITS.maxHeaderName + 1})] = "v"; return { headers: h }; }`);
    expect(longName.body.error).toMatch(/^RangeError: header names may have at most/);
    const bigBody = await simulate(`function handler() { return { body: "b".repeat(${MOCK_LIMITS.maxBodyChars + 1}) }; }`);
    expect(bigBody.body.error).toMatch(/^RangeError: the body has \d+ characters, more than the/);
    const fits = await simulate(`function handler() { return { headers: { "x-ok": "v" }, body: "b".repeat(${MOCK_LIMITS.maxBodyChars}) }; }`);
    expect(fits.body.response.body).toHaveLength(MOCK_LIMITS.maxBodyChars);
  });
});
