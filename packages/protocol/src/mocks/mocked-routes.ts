import { z } from 'zod';
import { Id, IsoDate } from '../common';
import { ITEM_LIMITS } from '../items';
import { MOCK_LIMITS } from './mock-limits';

export * from './mock-limits';

/** Mocked routes and their calls (spec 002 §3, §5, §7, §9; docs/mocks.md). */

/** HTTP method choices of the editor (spec 002 §9). */
export const MOCK_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
export const MockMethod = z.enum(MOCK_METHODS);
export type MockMethod = z.infer<typeof MockMethod>;

/**
 * `default` answers the request with a response (static or computed by a dynamic handler);
 * `mapRemote` sends it on to another endpoint. mapLocal is only referenced by the spec, without
 * behaviour, so it is not accepted.
 */
export const MOCK_MODES = ['default', 'mapRemote'] as const;
export const MockMode = z.enum(MOCK_MODES);
export type MockMode = z.infer<typeof MockMode>;

export const RESPONSE_MODES = ['static', 'dynamic'] as const;
export const ResponseMode = z.enum(RESPONSE_MODES);
export type ResponseMode = z.infer<typeof ResponseMode>;

/** Texts of the spec (spec 002 §8) that the server answers too. */
export const MOCK_MESSAGES = {
  urlRequired: 'Mocked URL is required',
  statusRequired: 'Status code is required',
  codeRequired: 'Code is required',
  tooManyTags: `A mocked route can have at most ${MOCK_LIMITS.maxTags} tags`,
  statusRange: `Status code must be an integer from ${MOCK_LIMITS.statusMin} to ${MOCK_LIMITS.statusMax}`,
  mapRemoteUrlRequired: 'Map remote URL must be an absolute http or https URL',
  routeNotFound: 'Mocked route not found',
  deleted: 'Mocked route deleted',
  updated: 'Mocked route updated',
  created: 'Mocked route created',
  deleteConfirmation: 'Are you sure you want to delete this mocked route? This action cannot be undone.',
  noResponseData: 'No response data available',
  savedFromRequest: 'Mock route saved successfully',
  emptySelection: 'Select or add a mocked route',
  emptyList: 'No mocked routes',
  onlyConnectedDevices: 'Only connected devices receive mocked routes.',
  urlMatches: 'URL matches pattern',
  urlDoesNotMatch: 'Request URL does not match pattern',
  simulating: 'Simulating...',
} as const;

/**
 * What a new dynamic route's code starts with (spec 002 §4). `handler` receives the request and
 * returns the response; `console.log` output goes to the route's console.
 */
export const DYNAMIC_STARTER_SCRIPT = `// Runs for every request that matches this route.
// request: { url, method, headers, body, query }
// Return { status, headers, body } (an object body is sent as JSON),
// or { error: 'message' } to fail the request.
function handler(request) {
  console.log('Mocking', request.method, request.url);
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: { message: 'Hello from Spyglass', query: request.query },
  };
}
`;

export const MockHeader = z.object({
  key: z.string().max(MOCK_LIMITS.maxHeaderName),
  value: z.string().max(MOCK_LIMITS.maxHeaderValue),
});
export type MockHeader = z.infer<typeof MockHeader>;

export const ConsoleEntry = z.object({
  time: IsoDate,
  message: z.string().max(MOCK_LIMITS.maxConsoleMessage),
  level: z.enum(['log', 'info', 'warn', 'error', 'debug']).optional(),
});
export type ConsoleEntry = z.infer<typeof ConsoleEntry>;

const statusCode = z.number({ error: MOCK_MESSAGES.statusRequired }).int(MOCK_MESSAGES.statusRange)
  .min(MOCK_LIMITS.statusMin, MOCK_MESSAGES.statusRange).max(MOCK_LIMITS.statusMax, MOCK_MESSAGES.statusRange);

/**
 * The mock of a route (spec 002 §3 mockData). Shape checks only: the rules that need the
 * pattern compiler or the sandbox (valid pattern, mapRemote target, code that runs) are applied
 * by `validateMockData` and the server.
 */
export const MockData = z.object({
  mode: MockMode.default('default'),
  responseMode: ResponseMode.default('static'),
  method: MockMethod.default('GET'),
  mockedUrl: z.string({ error: MOCK_MESSAGES.urlRequired }).max(MOCK_LIMITS.maxUrlLength),
  statusCode,
  /** Mirrors the route's isEnabled (the server keeps them equal). */
  isEnabled: z.boolean().optional(),
  headers: z.array(MockHeader).max(MOCK_LIMITS.maxHeaders).default([]),
  body: z.string().max(MOCK_LIMITS.maxBodyChars, `The body may hold at most ${MOCK_LIMITS.maxBodyChars} characters`).default(''),
  code: z.string().max(MOCK_LIMITS.maxCodeChars, `The code may hold at most ${MOCK_LIMITS.maxCodeChars} characters`).default(''),
  mapRemoteUrl: z.string().max(MOCK_LIMITS.maxUrlLength).default(''),
  /** Milliseconds to wait before answering; 0 or absent: no delay. */
  delayMs: z.number().int().min(0).max(MOCK_LIMITS.maxDelayMs).default(0),
  /** The dynamic handler's console output, newest last (kept by the server, capped). */
  consoleLog: z.array(ConsoleEntry).max(MOCK_LIMITS.maxConsoleEntries).default([]),
});
export type MockData = z.infer<typeof MockData>;
export type MockDataInput = z.input<typeof MockData>;

export const Tags = z.array(z.string().max(MOCK_LIMITS.maxTagLength))
  .transform((tags) => tags.map((t) => t.trim()).filter((t) => t.length > 0))
  .refine((tags) => tags.length <= MOCK_LIMITS.maxTags, MOCK_MESSAGES.tooManyTags);

/** A mocked route (spec 002 §3). */
export const MockedRoute = z.object({
  id: Id,
  deviceId: z.string(),
  isEnabled: z.boolean(),
  tags: z.array(z.string()),
  description: z.string(),
  areLiveUpdatesEnabled: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  mockData: MockData,
});
export type MockedRoute = z.infer<typeof MockedRoute>;

/** POST /v1/mocked-routes (spec 002 §7). A new route is disabled unless said otherwise. */
export const CreateMockedRouteBody = z.object({
  deviceId: z.string().min(1).max(200),
  mockData: MockData,
  isEnabled: z.boolean().default(false),
  tags: Tags.default([]),
  description: z.string().max(MOCK_LIMITS.maxDescription).default(''),
  areLiveUpdatesEnabled: z.boolean().default(false),
});
export type CreateMockedRouteBody = z.infer<typeof CreateMockedRouteBody>;
export type CreateMockedRouteInput = z.input<typeof CreateMockedRouteBody>;

/**
 * PUT /v1/mocked-routes/{id}: the fields sent replace the stored ones. `updatedAt` is accepted as
 * the editor sends it (spec 002 §7) and ignored: the server sets it.
 */
export const UpdateMockedRouteBody = z.object({
  mockData: MockData.optional(),
  isEnabled: z.boolean().optional(),
  tags: Tags.optional(),
  description: z.string().max(MOCK_LIMITS.maxDescription).optional(),
  areLiveUpdatesEnabled: z.boolean().optional(),
  updatedAt: z.string().max(40).optional(),
});
export type UpdateMockedRouteBody = z.infer<typeof UpdateMockedRouteBody>;
export type UpdateMockedRouteInput = z.input<typeof UpdateMockedRouteBody>;

export const MOCKED_ROUTE_SORTS = ['createdAt', 'updatedAt', 'isEnabled', 'method', 'mockedUrl'] as const;

/** GET /v1/mocked-routes: one device's routes, createdAt descending by default (spec 002 §7). */
export const MockedRoutesQuery = z.object({
  deviceId: z.string().min(1).max(200),
  sort: z.enum(MOCKED_ROUTE_SORTS).default('createdAt'),
  order: z.string().transform((o) => o.toUpperCase()).pipe(z.enum(['ASC', 'DESC'])).default('DESC'),
});
export type MockedRoutesQuery = z.infer<typeof MockedRoutesQuery>;

/** GET /v1/mocked-routes and GET /v1/mock-apis answer a plain list. */
export const MockedRouteList = z.array(MockedRoute);

/** The simulator's request definition (spec 002 §3): url, body, headers, method. */
export const SimulatedRequest = z.object({
  url: z.string().min(1, 'url is required').max(ITEM_LIMITS.maxUrlLength),
  method: z.string().min(1).max(20).transform((m) => m.toUpperCase()).default('GET'),
  headers: z.record(z.string().max(MOCK_LIMITS.maxHeaderName), z.string().max(MOCK_LIMITS.maxHeaderValue)).default({}),
  /** A string, or any JSON value (sent as its JSON text). */
  body: z.unknown().optional(),
});
export type SimulatedRequest = z.infer<typeof SimulatedRequest>;
export type SimulatedRequestInput = z.input<typeof SimulatedRequest>;

/**
 * POST /v1/mocked-routes/{id}/simulate. `mockData` simulates the editor's unsaved state instead
 * of the stored one (nothing is saved but the console entries).
 */
export const SimulateMockedRouteBody = z.object({
  request: SimulatedRequest,
  mockData: MockData.optional(),
});
export type SimulateMockedRouteBody = z.infer<typeof SimulateMockedRouteBody>;
export type SimulateMockedRouteInput = z.input<typeof SimulateMockedRouteBody>;

/** A response as a mock gives it. */
export const MockResponse = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
export type MockResponse = z.infer<typeof MockResponse>;

export const SimulateMockedRouteResponse = z.object({
  /** Whether the route would take the request ('URL matches pattern'). */
  matches: z.boolean(),
  /** The request URL and the route's pattern, shown side by side when they do not match. */
  url: z.string(),
  pattern: z.string(),
  /** The route's explanation in words (`explain`). */
  explanation: z.string(),
  /** The answer the device would give (default mode). */
  response: MockResponse.optional(),
  /** Where the request would be sent (mapRemote mode). */
  mappedUrl: z.string().optional(),
  /** Why there is no answer: an invalid pattern or target, a failing handler ('Error: {message}' in the console). */
  error: z.string().optional(),
  /** This run's console output. */
  logs: z.array(ConsoleEntry),
  durationMs: z.number(),
});
export type SimulateMockedRouteResponse = z.infer<typeof SimulateMockedRouteResponse>;

/** POST /v1/mocked-routes/{id}/publish: the device received the set (409 'Device is offline' otherwise). */
export const PublishMockedRoutesResponse = z.object({
  success: z.literal(true),
  /** Enabled routes and item mocks the device now applies. */
  routes: z.number().int().nonnegative(),
  itemMocks: z.number().int().nonnegative(),
});
export type PublishMockedRoutesResponse = z.infer<typeof PublishMockedRoutesResponse>;
