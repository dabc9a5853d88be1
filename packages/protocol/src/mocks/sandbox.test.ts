import { describe, expect, it } from 'vitest';
import { DYNAMIC_STARTER_SCRIPT } from './mocked-routes';
import { checkHandlerCode, handlerRequest, HandlerSandbox, runHandlerOnce } from './sandbox';

const request = handlerRequest({ url: 'https://api.example.com/todos?offset=2', method: 'get', headers: { accept: 'application/json' }, body: null });

describe('handler sandbox', () => {
  it('runs the starter script and captures its console', async () => {
    const outcome = await runHandlerOnce(DYNAMIC_STARTER_SCRIPT, request);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.response.status).toBe(200);
    expect(JSON.parse(outcome.response.body)).toEqual({ message: 'Hello from Spyglass', query: { offset: '2' } });
    expect(outcome.logs.map((l) => l.message)).toEqual(['Mocking GET https://api.example.com/todos?offset=2']);
  });

  it('computes a body from a query value, and serializes object bodies as JSON', async () => {
    const code = `function handler(req) {
      const offset = Number(req.query.offset || 0);
      return { status: 201, headers: { 'X-Offset': offset }, body: { items: [offset, offset + 1] } };
    }`;
    const outcome = await runHandlerOnce(code, request);
    expect(outcome).toMatchObject({ ok: true, response: { status: 201, headers: { 'X-Offset': '2', 'Content-Type': 'application/json' }, body: '{"items":[2,3]}' } });
  });

  it('supports async handlers', async () => {
    const outcome = await runHandlerOnce('async function handler(r) { await null; return { body: r.method }; }', request);
    expect(outcome).toMatchObject({ ok: true, response: { status: 200, body: 'GET' } });
  });

  it('stops an endless loop within the time limit', async () => {
    const started = Date.now();
    const outcome = await runHandlerOnce('function handler() { while (true) {} }', request, { timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome).toMatchObject({ ok: false, error: 'Error: the handler ran longer than 50 ms and was stopped' });
  });

  it('stops an endless loop at load time too', async () => {
    expect(await checkHandlerCode('while (true) {}\nfunction handler() {}', { timeoutMs: 30 })).toMatch(/ran longer than 30 ms/);
  });

  it('counts every allocation against the memory limit, not only the largest', async () => {
    // Three strings of 14 MB: each under the 16 MB limit, 42 MB together. QuickJS built for
    // WebAssembly cannot measure its blocks, so its own limit only refuses a single block above it.
    const strings = "function handler() { const s = 'x'.repeat(14 * 1024 * 1024), t = 'y'.repeat(14 * 1024 * 1024), u = 'z'.repeat(14 * 1024 * 1024); return { body: String(s.length + t.length + u.length) }; }";
    expect(await runHandlerOnce(strings, request, { timeoutMs: 10_000 })).toMatchObject({ ok: false, error: 'Error: the handler used more than 16 MB of memory and was stopped' });
    // A warm sandbox keeping 6 MB more per call is stopped once what it holds passes the limit.
    const box = await HandlerSandbox.create("function handler() { (globalThis.kept ??= []).push('k'.repeat(6 * 1024 * 1024)); return { body: String(kept.length) }; }", { timeoutMs: 10_000 });
    if (!(box instanceof HandlerSandbox)) throw new Error(box.error);
    const outcomes = [1, 2, 3, 4].map(() => box.run(request));
    expect(outcomes.filter((o) => o.ok).length).toBeLessThanOrEqual(2);
    expect(outcomes.at(-1)).toMatchObject({ ok: false });
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ error: 'Error: the handler used more than 16 MB of memory and was stopped' });
  });

  it('stops a memory bomb at the memory limit', async () => {
    const bomb = 'function handler() { const a = []; while (true) a.push({ i: a.length, s: "abc" + a.length }); }';
    // A generous time limit, so that the memory limit is what stops it.
    const outcome = await runHandlerOnce(bomb, request, { timeoutMs: 10_000, memoryBytes: 4 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, error: 'Error: the handler used more than 4 MB of memory and was stopped' });
    // With the default limits the time limit comes first.
    expect(await runHandlerOnce(bomb, request)).toMatchObject({ ok: false, error: expect.stringMatching(/ran longer than 50 ms|more than 16 MB/) });
    const doubling = await runHandlerOnce('function handler() { let s = "x"; while (true) s += s; }', request);
    expect(doubling).toMatchObject({ ok: false, error: expect.stringMatching(/^InternalError: string too long/) });
  });

  it('reports a thrown error with a stack excerpt, and keeps the console output', async () => {
    const outcome = await runHandlerOnce('function handler() { console.log("before"); throw new TypeError("boom"); }', request);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatch(/^TypeError: boom\n\s+at handler/);
    expect(outcome.logs[0]?.message).toBe('before');
  });

  it('has no process, require, modules, network or timers', async () => {
    const code = `function handler() {
      const seen = {
        process: typeof process, require: typeof require, fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest,
        setTimeout: typeof setTimeout, std: typeof std, os: typeof os, globalThisKeys: Object.keys(globalThis).sort(),
      };
      let imported = 'not tried';
      import('os').then(() => { imported = 'loaded'; }, (e) => { imported = String(e); });
      return { body: seen };
    }`;
    const outcome = await runHandlerOnce(code, request);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const seen = JSON.parse(outcome.response.body) as Record<string, unknown>;
    expect(seen).toMatchObject({ process: 'undefined', require: 'undefined', fetch: 'undefined', XMLHttpRequest: 'undefined', setTimeout: 'undefined', std: 'undefined', os: 'undefined' });
    expect(seen.globalThisKeys).toEqual(['console', 'handler']);
    const required = await runHandlerOnce('function handler() { return { body: require("fs").readFileSync("/etc/passwd", "utf8") }; }', request);
    expect(required).toMatchObject({ ok: false, error: expect.stringMatching(/^ReferenceError: .*require/) });
  });

  it('refuses garbage results with a clear error', async () => {
    const cases: Array<[string, RegExp]> = [
      ['function handler() { return 42; }', /must return an object/],
      ['function handler() { return { status: 99 }; }', /status must be an integer from 100 to 599/],
      ['function handler() { return { status: "ok" }; }', /status must be an integer/],
      ['function handler() { return { headers: { "bad name": "x" } }; }', /is not a header name/],
      ['function handler() { return { error: "no such user" }; }', /^Error: no such user$/],
      ['function handler() { const a = {}; a.a = a; return { body: a }; }', /TypeError/],
      ['function handler() { return new Promise(() => {}); }', /never settled/],
      ['const x = 1;', /must define function handler/],
      ['function handler( {', /^SyntaxError/],
    ];
    for (const [code, error] of cases) {
      const outcome = await runHandlerOnce(code, request);
      expect(outcome.ok, code).toBe(false);
      if (!outcome.ok) expect(outcome.error, code).toMatch(error);
    }
  });

  it('keeps a warm sandbox usable across calls and disposes it after a broken limit', async () => {
    const box = await HandlerSandbox.create('let n = 0; function handler(r) { n++; if (r.query.loop) while (true) {} return { body: String(n) }; }', { timeoutMs: 30 });
    if (!(box instanceof HandlerSandbox)) throw new Error(box.error);
    expect(box.run(request)).toMatchObject({ ok: true, response: { body: '1' } });
    expect(box.run(request)).toMatchObject({ ok: true, response: { body: '2' } });
    expect(box.run(handlerRequest({ url: 'https://x/?loop=1', method: 'GET' }))).toMatchObject({ ok: false });
    expect(box.broken).toBe(true);
    expect(box.run(request)).toMatchObject({ ok: false, error: expect.stringMatching(/disposed/) });
  });
});
