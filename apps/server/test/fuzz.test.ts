import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, describeApi, signUp, startTestServer, type ApiClient, type TestServer } from './helpers';
import { startGoogleIdentityProvider, type GoogleIdentityProvider } from './support/google-jwks';
import { containsSkip, garbageBody, invalidArbitrary, type JsonSchema } from './support/json-schema-arbitraries';
import { rowsOfUser } from './support/user-rows';

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  body: JsonSchema | null;
  params: Parameter[];
}

/** One generated bad request; `mustFail` when its input breaks a schema rule (not only an unknown id). */
interface BadRequest {
  url: string;
  body: string | undefined;
  contentType: string;
  mustFail: boolean;
}

// Thousands of requests per engine, shared out over the routes, while staying under 40 s.
const BUDGET = 3000;
const MIN_RUNS_WITH_INPUT = 40;
const RUNS_WITHOUT_INPUT = 15;
const SEED = Number(process.env.FUZZ_SEED ?? 20251123);

function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    body: (op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined) ?? null,
    params: ((op.parameters ?? []) as Parameter[]).filter((p) => p.in === 'path' || p.in === 'query'),
  })));
}

/** A path parameter: certainly invalid (must fail) or merely someone else's / no one's id. */
function pathValue(p: Parameter): fc.Arbitrary<{ value: string; invalid: boolean }> {
  const invalid = invalidArbitrary(p.schema).filter((v) => typeof v === 'string' && v !== '' && !containsSkip(v))
    .map((v) => ({ value: v as string, invalid: true }));
  const unknownId = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''))
    .map((value) => ({ value, invalid: false }));
  return fc.oneof(invalid, unknownId);
}

/** The query: a required parameter left out, given twice, or over its limits; plus junk parameters. */
function queryValue(params: Parameter[]): fc.Arbitrary<{ query: string; invalid: boolean }> {
  const query = params.filter((p) => p.in === 'query');
  const junk = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 30 }), { maxKeys: 3 });
  const required = query.filter((p) => p.required);
  if (required.length === 0) {
    return junk.map((extra) => ({ query: new URLSearchParams(extra).toString(), invalid: false }));
  }
  const broken = fc.tuple(fc.constantFrom(...required), fc.nat({ max: 2 }), invalidArbitrary(required[0]!.schema), junk)
    .map(([p, how, bad, extra]) => {
      const qs = new URLSearchParams(extra);
      for (const r of required) qs.delete(r.name);
      if (how === 1) {
        qs.append(p.name, 'a');
        qs.append(p.name, 'b');
      } else if (how === 2 && typeof bad === 'string') {
        qs.append(p.name, bad);
      }
      return { query: qs.toString(), invalid: true };
    });
  const unknownValue = fc.tuple(fc.string({ minLength: 1, maxLength: 60 }), junk).map(([v, extra]) => {
    const qs = new URLSearchParams(extra);
    for (const r of required) qs.set(r.name, v);
    return { query: qs.toString(), invalid: false };
  });
  return fc.oneof(broken, unknownValue);
}

function badRequests(op: Operation): fc.Arbitrary<BadRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const path = pathParams.length
    ? fc.tuple(...pathParams.map((p) => pathValue(p).map((v) => [p.name, v] as const))).map((entries) => ({
      path: entries.reduce((acc, [name, v]) => acc.replace(`{${name}}`, encodeURIComponent(v.value)), op.path),
      invalid: entries.some(([, v]) => v.invalid),
    }))
    : fc.constant({ path: op.path, invalid: false });

  // Bodies: JSON that breaks the schema, or no JSON at all.
  const jsonBody = op.body
    ? invalidArbitrary(op.body).filter((v) => !containsSkip(v)).map((v) => ({ body: JSON.stringify(v), contentType: 'application/json', invalid: true }))
    : null;
  const rawBody = garbageBody.map((body) => ({ body, contentType: 'application/json', invalid: true }));
  const wrongMedia = fc.string({ minLength: 1, maxLength: 50 }).map((body) => ({ body, contentType: 'text/xml', invalid: true }));
  const noBody = fc.constant({ body: undefined as string | undefined, contentType: 'application/json', invalid: false });
  const body = op.method === 'GET'
    ? noBody
    : jsonBody ? fc.oneof({ arbitrary: jsonBody, weight: 6 }, { arbitrary: rawBody, weight: 2 }, { arbitrary: wrongMedia, weight: 1 })
      : fc.oneof(rawBody, wrongMedia);

  return fc.tuple(path, queryValue(op.params), body).map(([p, q, b]) => ({
    url: q.query ? `${p.path}?${q.query}` : p.path,
    body: b.body,
    contentType: b.contentType,
    // A body-less call with only an unknown id or junk query may succeed (e.g. GET with extra parameters).
    mustFail: p.invalid || q.invalid || b.invalid,
  }));
}

describeApi('fuzz: generated bad input on every route of the OpenAPI document', () => {
  let server: TestServer;
  let google: GoogleIdentityProvider;
  let api: ApiClient;
  let userId: string;

  beforeAll(async () => {
    google = await startGoogleIdentityProvider();
    server = await startTestServer({ config: { googleClientId: google.clientId, googleJwksUrl: google.jwksUrl } });
    const account = await signUp(server.url);
    api = account.api;
    userId = account.profile.id;
    await api.post('/v1/user/settings', { settings: { theme: 'dark', leftSidebarWidth: 333 } });
    await api.post('/v1/user/details', { firstName: 'Fuzz', lastName: 'Target', company: 'Spyglass', companySize: '1', role: 'devops' });
  });
  afterAll(async () => {
    await server?.close();
    await google?.close();
  });

  const snapshot = async () => ({
    user: (await api.get('/v1/user')).body,
    settings: (await api.get('/v1/user/settings')).body,
    tours: (await api.get('/v1/user/welcome-tour')).body,
    rows: await rowsOfUser(server.app.ctx.db, userId),
  });

  it('answers every bad request with a 4xx, never a 5xx, and changes nothing', { timeout: 120_000 }, async () => {
    const doc = (await apiClient(server.url).get('/v1/openapi.json')).body;
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(15);
    const before = await snapshot();
    let sent = 0;
    const withInput = ops.filter((o) => o.body !== null || o.params.length > 0).length;
    const runsWithInput = Math.max(MIN_RUNS_WITH_INPUT, Math.floor((BUDGET - RUNS_WITHOUT_INPUT * (ops.length - withInput)) / withInput));

    for (const op of ops) {
      // Logout has no input to get wrong: any call that gets through parsing would sign us out.
      const hasInput = op.body !== null || op.params.length > 0;
      await fc.assert(
        fc.asyncProperty(badRequests(op), async (req) => {
          if (op.path === '/v1/auth/logout' && req.body === undefined) return;
          const res = await api.call(op.method, req.url, req.body, { 'content-type': req.contentType });
          sent++;
          const where = `${op.method} ${req.url} ${req.body?.slice(0, 300) ?? ''} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          if (req.mustFail) expect(res.status, where).toBeGreaterThanOrEqual(400);
          expect(typeof res.body === 'object' && res.body !== null, where).toBe(true);
          if (res.status >= 400) expect(typeof res.body.error, where).toBe('string');
        }),
        { numRuns: hasInput ? runsWithInput : RUNS_WITHOUT_INPUT, seed: SEED, endOnFailure: true },
      );
    }

    expect(sent).toBeGreaterThanOrEqual(2500);
    expect((await apiClient(server.url).get('/healthz')).body).toEqual({ ok: true });
    expect(await snapshot()).toEqual(before);
  });
});
