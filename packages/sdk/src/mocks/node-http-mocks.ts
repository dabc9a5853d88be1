import type { MockedBy } from '../capture/interceptors';
import { delay, type MockEngine } from './mock-engine';

type RequestFunction = (...args: unknown[]) => { on(event: string, listener: (...args: unknown[]) => void): unknown };
interface HttpModule {
  request: RequestFunction;
  get: RequestFunction;
  STATUS_CODES?: Record<number, string | undefined>;
}

interface Normalized {
  url: string;
  options: Record<string, unknown>;
  callback: ((...args: unknown[]) => void) | undefined;
}

/** What ClientRequest would make of the arguments of `request(url?, options?, callback?)`. */
function normalize(args: unknown[], defaultProtocol: string): Normalized | undefined {
  let options: Record<string, unknown> = {};
  let rest = args;
  if (typeof args[0] === 'string' || args[0] instanceof URL) {
    let url: URL;
    try {
      url = new URL(String(args[0]));
    } catch {
      return undefined;
    }
    options = {
      protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || undefined,
      path: `${url.pathname}${url.search}`, ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    };
    rest = args.slice(1);
  }
  if (rest[0] && typeof rest[0] === 'object' && !(rest[0] instanceof URL)) {
    options = { ...options, ...(rest[0] as Record<string, unknown>) };
    rest = rest.slice(1);
  }
  const callback = typeof rest[0] === 'function' ? (rest[0] as Normalized['callback']) : undefined;
  const protocol = String(options.protocol ?? defaultProtocol);
  const host = String(options.hostname ?? options.host ?? 'localhost').replace(/:\d+$/, '');
  const port = options.port ? `:${String(options.port)}` : '';
  const bracketed = host.includes(':') ? `[${host}]` : host;
  return { url: `${protocol}//${bracketed}${port}${String(options.path ?? '/')}`, options, callback };
}

interface AgentLike {
  addRequest(req: { destroyed?: boolean }, options: unknown): void;
}

/**
 * The target's agent, giving the request its connection only after the route's delay: the
 * request object is the app's at once (the client writes its body into it meanwhile, which
 * node:http holds until a socket comes), and nothing reaches the network before the delay.
 */
function delayedAgent(agent: AgentLike, delayMs: number): AgentLike {
  const delayed = Object.create(agent) as AgentLike;
  delayed.addRequest = (req, options) => {
    setTimeout(() => {
      if (!req.destroyed) agent.addRequest(req, options);
    }, delayMs);
  };
  return delayed;
}

/** The raw request a fake socket received: the body after the head, de-chunked. */
function requestBody(raw: Buffer): string | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = raw.subarray(0, end).toString('latin1');
  let body = raw.subarray(end + 4);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const line = body.indexOf('\r\n', at);
      if (line < 0) break;
      const size = parseInt(body.subarray(at, line).toString('latin1'), 16);
      if (!Number.isFinite(size) || size === 0) break;
      parts.push(body.subarray(line + 2, line + 2 + size));
      at = line + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return body.length ? body.toString('utf8') : null;
}

/**
 * Applies mocks to node:http and node:https client requests (axios, got and other Node clients):
 * a request a mock answers is given a socket of our own, which collects what the client writes
 * and answers with the mock as raw HTTP, so the client, its parser and the capture see an
 * ordinary exchange; a mapRemote request is made to the target instead. `mockedBy` tells the
 * capture which requests were mocked. Node only; answers the undo.
 */
export async function installNodeHttpMocks(engine: MockEngine, shouldMock: (url: string) => boolean, mockedBy: WeakMap<object, MockedBy>): Promise<() => void> {
  const [httpNs, httpsNs, stream, module] = await Promise.all([import('node:http'), import('node:https'), import('node:stream'), import('node:module')]);
  // The CommonJS objects: a module namespace cannot be assigned to.
  const http = httpNs.default;
  const https = httpsNs.default;
  const modules: Array<[HttpModule, string]> = [[http as unknown as HttpModule, 'http:'], [https as unknown as HttpModule, 'https:']];
  const originals = modules.map(([mod]) => ({ request: mod.request, get: mod.get }));
  const requestOf = (protocol: string) => (protocol === 'https:' ? originals[1]!.request : originals[0]!.request);

  const mockedRequest = (normalized: Normalized, original: RequestFunction) => {
    const { url, options, callback } = normalized;
    const method = String(options.method ?? 'GET').toUpperCase();
    const chunks: Buffer[] = [];
    let socket: InstanceType<typeof stream.Duplex> | undefined;
    const createConnection = () => {
      socket = new stream.Duplex({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(Buffer.from(chunk));
          done();
        },
        read() {},
      });
      // What ClientRequest and agents ask of a net.Socket.
      Object.assign(socket, {
        setTimeout: () => socket, setNoDelay: () => socket, setKeepAlive: () => socket, ref: () => socket, unref: () => socket,
        remoteAddress: '127.0.0.1', remotePort: 0, encrypted: options.protocol === 'https:',
      });
      return socket;
    };
    const { agent: _agent, ...rest } = options;
    const req = original({ ...rest, agent: undefined, createConnection }, ...(callback ? [callback] : []));
    req.on('finish', () => {
      const raw = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      const head = raw.subarray(0, Math.max(0, raw.indexOf('\r\n\r\n'))).toString('latin1').split('\r\n').slice(1);
      for (const line of head) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      void engine.decide({ method, url, headers, body: requestBody(raw) }).then(async (decision) => {
        if (!socket) return;
        if (!decision || decision.kind !== 'respond') {
          socket.destroy(new Error('Spyglass: the mock for this request was removed while it was sent'));
          return;
        }
        await delay(decision.delayMs);
        mockedBy.set(req, decision.mockedBy);
        const body = Buffer.from(decision.body, 'utf8');
        const lines = [`HTTP/1.1 ${decision.status} ${http.STATUS_CODES[decision.status] ?? 'Mocked'}`];
        for (const [name, value] of Object.entries(decision.headers)) {
          if (/^(content-length|transfer-encoding|connection)$/i.test(name)) continue;
          lines.push(`${name}: ${value}`);
        }
        lines.push(`Content-Length: ${body.length}`, 'Connection: close', '', '');
        socket.push(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
        socket.push(null);
      });
    });
    return req;
  };

  const wrap = (original: RequestFunction, protocol: string, isGet: boolean): RequestFunction =>
    // `original` is the function replaced (request or get); mocked requests are made with request.
    function spyglassRequest(this: unknown, ...args: unknown[]) {
      if (engine.isEmpty) return original.apply(this, args);
      const normalized = normalize(args, protocol);
      if (!normalized || !shouldMock(normalized.url)) return original.apply(this, args);
      const method = String(normalized.options.method ?? 'GET').toUpperCase();
      const peek = engine.peek(method, normalized.url);
      if (!peek) return original.apply(this, args);
      let req: ReturnType<RequestFunction> & { end?: () => void };
      if (peek.kind === 'forward') {
        const target = new URL(peek.url);
        const { agent: _agent, host: _host, ...rest } = normalized.options;
        const headers = { ...(rest.headers as Record<string, string> | undefined), host: target.host };
        const targetModule = target.protocol === 'https:' ? https : http;
        req = requestOf(target.protocol)({
          ...rest, protocol: target.protocol, hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || undefined,
          path: `${target.pathname}${target.search}`, headers,
          ...(peek.delayMs > 0 ? { agent: delayedAgent(targetModule.globalAgent as unknown as AgentLike, peek.delayMs) } : {}),
        }, ...(normalized.callback ? [normalized.callback] : []));
        mockedBy.set(req, peek.mockedBy);
      } else {
        req = mockedRequest(normalized, requestOf(protocol));
      }
      // `get` ends the request at once, as node:http's own does.
      if (isGet) req.end?.();
      return req;
    };

  modules.forEach(([mod, protocol], i) => {
    mod.request = wrap(originals[i]!.request, protocol, false);
    mod.get = wrap(originals[i]!.get, protocol, true);
  });
  // ESM named imports of node:http see the patched functions too.
  module.syncBuiltinESMExports();
  return () => {
    modules.forEach(([mod], i) => {
      mod.request = originals[i]!.request;
      mod.get = originals[i]!.get;
    });
    module.syncBuiltinESMExports();
  };
}
