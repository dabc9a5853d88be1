import crypto from 'node:crypto';
import { z } from 'zod';
import {
  CompactItemSchema, ConsoleEntry, CreateMockedRouteBody, explainRoute, IdParams, INTERCEPTED_HEADER, ItemMockData,
  MOCK_LIMITS, MOCK_MESSAGES, MockedRoute, MockedRouteList, MockedRoutesQuery, parseRequestUrl, PublishMockedRoutesResponse,
  routeMatches, SimulateMockedRouteBody, SimulateMockedRouteResponse, SuccessBody, UpdateMockedRouteBody, validateMockData, mappedUrlFor,
  type MockData, type SimulateMockedRouteResponse as SimulateResponse,
} from '@spyglass/protocol';
import { handlerRequest } from '@spyglass/protocol/sandbox';
import type { App } from '../../context';
import { badRequest, notFound, tooManyRequests } from '../../errors';
import { findCompactItems } from '../../repositories/items.repository';
import { findItemType, setItemMock } from '../../repositories/item-mocks.repository';
import { buildDeviceMocks, publishDeviceMocks, pushDeviceMocks } from '../../services/mock-delivery.service';
import {
  countRoutesForDevice, deleteRoute, findRoute, findRoutesForDevice, findRoutesForUser, insertRoute, updateRoute,
} from '../../repositories/mocked-routes.repository';
import { SandboxBusyError, SandboxPool } from '../../sandbox/sandbox-pool';
import { REQUEST_NOT_FOUND, requireDevice } from '../route-helpers';

const ItemMockParams = z.object({ id: z.string().min(1).max(200), requestId: z.string().min(1).max(100) });

/**
 * Mocked routes (spec 002 §7) and mocks of captured items (spec 001 §7). Every change is sent to
 * the device at once (mock-delivery); dynamic code is checked and simulated in the sandbox pool,
 * never on this thread.
 */
export async function mocksRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const { commands } = ctx.live;
  const pool = new SandboxPool();
  app.addHook('onClose', () => pool.close());

  const push = (userId: string, deviceId: string) => pushDeviceMocks(ctx.db, commands, app.log, userId, deviceId, ctx.now());

  /** The save rules beyond the shape (spec 002 §5); a failing dynamic script answers its error excerpt. */
  async function checkMockData(userId: string, data: MockData): Promise<void> {
    const broken = validateMockData(data);
    if (broken) throw badRequest(broken);
    if (data.mode === 'default' && data.responseMode === 'dynamic') {
      const error = await sandboxed(() => pool.check(userId, data.code));
      if (error) throw badRequest(error, { codeError: true });
    }
  }

  /**
   * The device's whole set (enabled routes and item mocks) with `route` or `itemMock` in place
   * must fit in one `mocks` frame.
   */
  async function checkDeviceSetSize(userId: string, deviceId: string, change: { route?: MockedRoute; itemMock?: { itemId: string; data: ItemMockData } }): Promise<void> {
    const mocks = await buildDeviceMocks(ctx.db, userId, deviceId, 0);
    const routes = mocks.routes.filter((r) => r.id !== change.route?.id).map((r) => r.mockData as unknown);
    if (change.route?.isEnabled) routes.push({ ...change.route.mockData, consoleLog: [] });
    const items = mocks.itemMocks.filter((m) => m.itemId !== change.itemMock?.itemId) as unknown[];
    if (change.itemMock?.data.isMocked) items.push(change.itemMock.data);
    const bytes = [...routes, ...items].reduce((sum: number, value) => sum + Buffer.byteLength(JSON.stringify(value)), 0);
    if (bytes > MOCK_LIMITS.maxDeviceSetBytes) {
      throw badRequest(`The mocks of a device may hold at most ${MOCK_LIMITS.maxDeviceSetBytes / 1024 / 1024} MB in all`);
    }
  }

  async function ownRoute(userId: string, id: string): Promise<MockedRoute> {
    const route = await findRoute(ctx.db, userId, id);
    if (!route) throw notFound(MOCK_MESSAGES.routeNotFound);
    return route;
  }

  app.get('/mocked-routes', { schema: { querystring: MockedRoutesQuery, response: { 200: MockedRouteList } } }, async (req) => {
    await requireDevice(ctx, req.user.id, req.query.deviceId);
    return findRoutesForDevice(ctx.db, req.user.id, req.query);
  });

  app.get('/mock-apis', { schema: { response: { 200: MockedRouteList } } }, async (req) => findRoutesForUser(ctx.db, req.user.id));

  app.post('/mocked-routes', { schema: { body: CreateMockedRouteBody, response: { 201: MockedRoute } } }, async (req, reply) => {
    const { deviceId, mockData, ...fields } = req.body;
    await requireDevice(ctx, req.user.id, deviceId);
    await checkMockData(req.user.id, mockData);
    if ((await countRoutesForDevice(ctx.db, req.user.id, deviceId)) >= MOCK_LIMITS.maxRoutesPerDevice) {
      throw badRequest(`A device can have at most ${MOCK_LIMITS.maxRoutesPerDevice} mocked routes`);
    }
    const at = new Date(ctx.now()).toISOString();
    const route: MockedRoute = {
      id: crypto.randomUUID(), deviceId, ...fields, createdAt: at, updatedAt: at,
      mockData: { ...mockData, isEnabled: fields.isEnabled, consoleLog: [] },
    };
    await checkDeviceSetSize(req.user.id, deviceId, { route });
    await insertRoute(ctx.db, req.user.id, route);
    push(req.user.id, deviceId);
    if (route.isEnabled) ctx.tourProgress.record(req.user.id, 'mockEnabled');
    return reply.status(201).send(route);
  });

  app.put('/mocked-routes/:id', { schema: { params: IdParams, body: UpdateMockedRouteBody, response: { 200: MockedRoute } } }, async (req) => {
    const stored = await ownRoute(req.user.id, req.params.id);
    const { mockData, updatedAt: _clientUpdatedAt, ...fields } = req.body;
    if (mockData) await checkMockData(req.user.id, mockData);
    const isEnabled = fields.isEnabled ?? stored.isEnabled;
    const route: MockedRoute = {
      ...stored,
      ...fields,
      isEnabled,
      updatedAt: new Date(ctx.now()).toISOString(),
      // The console log is the server's: an editor's copy never overwrites it.
      mockData: { ...(mockData ?? stored.mockData), isEnabled, consoleLog: stored.mockData.consoleLog },
    };
    await checkDeviceSetSize(req.user.id, route.deviceId, { route });
    if (!(await updateRoute(ctx.db, req.user.id, route))) throw notFound(MOCK_MESSAGES.routeNotFound);
    push(req.user.id, route.deviceId);
    if (route.isEnabled) ctx.tourProgress.record(req.user.id, 'mockEnabled');
    return route;
  });

  app.delete('/mocked-routes/:id', { schema: { params: IdParams, response: { 200: SuccessBody } } }, async (req) => {
    const stored = await ownRoute(req.user.id, req.params.id);
    if (!(await deleteRoute(ctx.db, req.user.id, stored.id))) throw notFound(MOCK_MESSAGES.routeNotFound);
    push(req.user.id, stored.deviceId);
    return { success: true as const };
  });

  app.post('/mocked-routes/:id/publish', { schema: { params: IdParams, response: { 200: PublishMockedRoutesResponse } } }, async (req) => {
    const route = await ownRoute(req.user.id, req.params.id);
    const counts = await publishDeviceMocks(ctx.db, commands, req.user.id, route.deviceId, ctx.now());
    return { success: true as const, ...counts };
  });

  app.post('/mocked-routes/:id/simulate', { schema: { params: IdParams, body: SimulateMockedRouteBody, response: { 200: SimulateMockedRouteResponse } } }, async (req) => {
    const stored = await ownRoute(req.user.id, req.params.id);
    const data = req.body.mockData ?? stored.mockData;
    const { request } = req.body;
    const body = request.body === undefined || request.body === null ? null : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const started = performance.now();
    const route = { id: stored.id, createdAt: stored.createdAt, mockData: data };
    const result: SimulateResponse = {
      matches: routeMatches(route, request),
      url: request.url,
      pattern: data.mockedUrl,
      explanation: explainRoute(route),
      logs: [],
      durationMs: 0,
    };
    const invalid = validateMockData(data);
    if (invalid) result.error = invalid;
    else if (!parseRequestUrl(request.url)) result.error = 'The request url must be an absolute http or https URL';
    else if (data.mode === 'mapRemote') {
      // Where it would go even when the pattern does not match, so both can be compared.
      result.mappedUrl = mappedUrlFor(route, request) ?? mappedUrlFor({ ...route, mockData: { ...data, mockedUrl: '*' } }, request);
    } else if (data.responseMode === 'dynamic') {
      const outcome = await sandboxed(() => pool.run(req.user.id, data.code, handlerRequest({ ...request, body })));
      result.logs = outcome.logs;
      if (outcome.ok) result.response = outcome.response;
      else result.error = outcome.error;
    } else {
      result.response = { status: data.statusCode, headers: Object.fromEntries(data.headers.filter((h) => h.key).map((h) => [h.key, h.value])), body: data.body };
    }
    result.durationMs = Math.round((performance.now() - started) * 100) / 100;

    const entries = [...result.logs];
    if (result.error) entries.push({ time: new Date(ctx.now()).toISOString(), message: `Error: ${result.error.replace(/^Error: /, '')}`.slice(0, MOCK_LIMITS.maxConsoleMessage), level: 'error' });
    if (entries.length) {
      const consoleLog = [...stored.mockData.consoleLog, ...entries].slice(-MOCK_LIMITS.maxConsoleEntries).map((e) => ConsoleEntry.parse(e));
      await updateRoute(ctx.db, req.user.id, { ...stored, mockData: { ...stored.mockData, consoleLog } });
    }
    return result;
  });

  app.put('/devices/:id/requests/:requestId/mock', { schema: { params: ItemMockParams, body: ItemMockData, response: { 200: CompactItemSchema } } }, async (req) => {
    const { id: deviceId, requestId } = req.params;
    await requireDevice(ctx, req.user.id, deviceId);
    const type = await findItemType(ctx.db, req.user.id, deviceId, requestId);
    if (!type) throw notFound(REQUEST_NOT_FOUND);
    if (type !== 'network') throw badRequest('Only network requests can be mocked');
    const data = withInterceptedHeader(req.body, requestId);
    if (data.isMocked) {
      const broken = validateMockData({ mockedUrl: data.mockedUrl.trim() || data.url, mode: 'default', responseMode: 'static', code: '', mapRemoteUrl: '' });
      if (broken) throw badRequest(broken);
    }
    await checkDeviceSetSize(req.user.id, deviceId, { itemMock: { itemId: requestId, data } });
    if (!(await setItemMock(ctx.db, req.user.id, deviceId, requestId, data, ctx.now()))) throw notFound(REQUEST_NOT_FOUND);
    const [item] = await findCompactItems(ctx.db, req.user.id, deviceId, [requestId]);
    if (!item) throw notFound(REQUEST_NOT_FOUND);
    ctx.live.viewers.newRequests(req.user.id, deviceId, [item]);
    push(req.user.id, deviceId);
    if (data.isMocked) ctx.tourProgress.record(req.user.id, 'mockEnabled');
    return item;
  });
}

/** The item's own id in `Spyglass-Intercepted` is always there (spec 001 §5), whatever was sent. */
function withInterceptedHeader(data: ItemMockData, itemId: string): ItemMockData {
  const wanted = INTERCEPTED_HEADER.toLowerCase();
  const headers = Object.fromEntries(Object.entries(data.headers).filter(([name]) => name.toLowerCase() !== wanted));
  return { ...data, headers: { [INTERCEPTED_HEADER]: itemId, ...headers } };
}

async function sandboxed<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof SandboxBusyError) throw tooManyRequests(err.message);
    throw err;
  }
}
