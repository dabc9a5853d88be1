import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * A site on the loopback serving the browser SDK built from its sources at `/sdk/browser.js` and
 * an empty app page at `/` (titled `title`): a page there imports the SDK the way an app would.
 * `backend` answers the app's own calls: it returns false for a path it does not serve (404).
 */
export async function serveBrowserSdk({ title = 'Field app', backend }: {
  title?: string;
  backend?: (pathname: string, req: http.IncomingMessage, res: http.ServerResponse) => boolean;
} = {}): Promise<{ url: string; close(): Promise<void> }> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../packages/sdk/src/browser.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', splitting: true, outdir: '/sdk', logLevel: 'warning',
    external: ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
  });
  const scripts = new Map(bundle.outputFiles.map((file) => [file.path, file.text]));
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    const script = scripts.get(pathname);
    if (script) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    // A page's own icon request must not log a 404 the tests count as a page error.
    if (pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title><p>${title.toLowerCase()}</p>`);
    if (!backend?.(pathname, req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
