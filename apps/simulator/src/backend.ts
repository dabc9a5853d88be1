import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gradientPng } from './png';

/** The virtual apps' API: a real HTTP server, so captured items are real request/response pairs. */
export interface FakeBackend {
  url: string;
  close(): Promise<void>;
}

const PRODUCTS = ['Trail Runner 3', 'Merino Hoodie', 'Ceramic Pour-Over', 'Noise-Cancelling Buds', 'Linen Tote', 'Cast Iron Skillet', 'Desk Lamp Pro', 'Yoga Mat XL'];

const product = (id: number) => ({
  id,
  name: PRODUCTS[id % PRODUCTS.length],
  price: Math.round((9.99 + ((id * 37) % 190)) * 100) / 100,
  currency: 'EUR',
  inStock: id % 5 !== 0,
  tags: ['new', 'sale', 'eco'].slice(0, id % 3),
  updatedAt: new Date(Date.UTC(2026, 0, 1 + (id % 28))).toISOString(),
});

/** More than 64 KB of JSON, so the server keeps it in the blob store. */
const CATALOG = JSON.stringify({
  generatedAt: '2026-01-01T00:00:00.000Z',
  items: Array.from({ length: 700 }, (_, i) => ({ ...product(i), description: `${PRODUCTS[i % PRODUCTS.length]} made to last, batch ${i}.` })),
});

const FEED_XML = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Acme news</title>
${[1, 2, 3].map((i) => `<item><guid>${i}</guid><title>Release notes ${i}</title><pubDate>Thu, 0${i} Jan 2026 09:00:00 GMT</pubDate></item>`).join('\n')}
</channel></rss>`;

const HELP_HTML = `<!doctype html><html><head><title>Help</title></head><body><h1>Help centre</h1><p>Questions? <a href="/contact">Contact us</a>.</p><script>window.track&&track('help')</script></body></html>`;

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'), Buffer.alloc(2048, 7), Buffer.from('\n%%EOF\n')]);

const IMAGES = new Map<string, Buffer>();
function image(name: string): Buffer {
  let png = IMAGES.get(name);
  if (!png) {
    const h = [...name].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
    png = gradientPng(48, 48, [h & 255, (h >> 8) & 255, (h >> 16) & 255], [255 - (h & 255), 128, (h >> 4) & 255]);
    IMAGES.set(name, png);
  }
  return png;
}

let requestCounter = 0;

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: http.OutgoingHttpHeaders = {}): void {
  const requestId = `req_${(++requestCounter).toString(36).padStart(6, '0')}`;
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-request-id': requestId, ...headers });
  res.end(body);
}

const json = (res: http.ServerResponse, status: number, value: unknown, headers?: http.OutgoingHttpHeaders) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);

function route(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://backend');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  let match: RegExpExecArray | null;

  if (method === 'GET' && path === '/api/products') {
    const page = Number(url.searchParams.get('page') ?? 1);
    return json(res, 200, { page, pageSize: 8, total: 64, items: Array.from({ length: 8 }, (_, i) => product((page - 1) * 8 + i)) });
  }
  if (method === 'GET' && (match = /^\/api\/products\/(\d+)$/.exec(path))) {
    const id = Number(match[1]);
    return id > 500 ? json(res, 404, { error: 'Product not found', id }) : json(res, 200, product(id));
  }
  if (method === 'POST' && path === '/api/cart') {
    const input = JSON.parse(body.toString() || '{}') as { productId?: number; quantity?: number };
    return json(res, 201, { cartId: 'c_7f3a', items: [{ ...product(input.productId ?? 1), quantity: input.quantity ?? 1 }] });
  }
  if (method === 'DELETE' && /^\/api\/cart\/items\/\d+$/.test(path)) {
    res.writeHead(204).end();
    return;
  }
  if (method === 'POST' && path === '/api/login') {
    const form = new URLSearchParams(body.toString());
    return form.get('password') === 'hunter2'
      ? json(res, 401, { error: 'Invalid credentials' }, { 'www-authenticate': 'Bearer' })
      : json(res, 200, { token: 'eyJhbGciOiJIUzI1NiJ9.c2ltdWxhdG9y.sig', expiresIn: 3600, user: { id: 42, name: form.get('username') } });
  }
  if (method === 'PUT' && path === '/api/profile') return json(res, 200, { ...JSON.parse(body.toString() || '{}'), updatedAt: new Date().toISOString() });
  if (method === 'POST' && path === '/api/upload') return json(res, 201, { received: body.length, contentType: req.headers['content-type'] });
  if (method === 'POST' && path === '/api/payments') {
    return json(res, 502, { error: 'Payment provider unavailable', code: 'PSP_TIMEOUT' }, { 'retry-after': '30' });
  }
  if (method === 'GET' && path === '/api/recommendations') return json(res, 503, { error: 'Service temporarily unavailable' });
  if (method === 'GET' && path === '/api/admin') return json(res, 403, { error: 'Forbidden' });
  if (method === 'POST' && path === '/api/orders') return json(res, 422, { error: 'Validation failed', fields: { address: 'required' } });
  if (method === 'GET' && path === '/api/crash') return send(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error\n  at OrderService.load (orders.js:88)');
  if (method === 'GET' && path === '/api/feed.xml') return send(res, 200, 'application/xml; charset=utf-8', FEED_XML);
  if (method === 'GET' && path === '/help') return send(res, 200, 'text/html; charset=utf-8', HELP_HTML);
  if (method === 'GET' && path === '/api/health') return send(res, 200, 'text/plain; charset=utf-8', 'ok');
  if (method === 'GET' && path === '/api/catalog/export') return json(res, 200, JSON.parse(CATALOG));
  if (method === 'GET' && path === '/files/invoice.pdf') return send(res, 200, 'application/pdf', PDF, { 'content-disposition': 'attachment; filename="invoice.pdf"' });
  if (method === 'GET' && (match = /^\/images\/([\w-]+)\.png$/.exec(path))) return send(res, 200, 'image/png', image(match[1]!));
  if (method === 'GET' && path === '/api/slow') {
    const ms = Math.min(10_000, Number(url.searchParams.get('ms') ?? 1500));
    const timer = setTimeout(() => json(res, 200, { waitedMs: ms }), ms);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  if (path === '/api/reset') {
    // A connection that dies before any response: the app sees a network error.
    req.socket.destroy();
    return;
  }
  json(res, 404, { error: `No route for ${method} ${path}` });
}

export async function startFakeBackend(port = 0): Promise<FakeBackend> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        route(req, res, Buffer.concat(chunks));
      } catch (error) {
        json(res, 400, { error: String(error) });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
