import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';

/** The built dashboard (`apps/web/dist`), served by both hosts. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Vite names every file it writes under assets/ by a hash of its content: such a file never changes. */
const HASHED_ASSETS = 'assets/';
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The files of a built web client, read from disk at each request: rebuilding the client under a
 * running server serves the new index.html and its new hashed assets at once (a list made at
 * start answered the new index.html with 404s for its scripts: a blank page). A request path is
 * checked before the file system is asked, and the file found must lie inside the root once
 * symbolic links are resolved, so no path outside it is read and a file out there cannot be told
 * from one that does not exist (both are 404).
 */
export interface WebRoot {
  dir: string;
  /** index.html as it is now; null while it is missing (a build in progress). */
  indexHtml(): Promise<string | null>;
  /** The path (relative to `dir`, `/` separated) of the file a request path names, or null (undecodable, outside the root, missing, or index.html). */
  fileFor(urlPath: string): Promise<string | null>;
}

/** The web root at `dir`, or null when it holds no index.html at start (no client built: the server then serves the API only). */
export function loadWebRoot(dir: string = WEB_DIST): WebRoot | null {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return null;
  const root = fs.realpathSync(dir);
  return {
    dir,
    async indexHtml() {
      try {
        return await fs.promises.readFile(path.join(root, 'index.html'), 'utf8');
      } catch {
        return null;
      }
    },
    async fileFor(urlPath) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return null;
      }
      if (!decoded.startsWith('/')) return null;
      const segments = decoded.slice(1).split('/');
      // Only plain names: no empty, `.` or `..` segment, no backslash (a separator on Windows), no NUL.
      if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s))) return null;
      const relative = segments.join('/');
      if (relative === 'index.html') return null;
      try {
        const real = await fs.promises.realpath(path.join(root, ...segments));
        if (!real.startsWith(root + path.sep)) return null;
        return (await fs.promises.stat(real)).isFile() ? relative : null;
      } catch {
        return null;
      }
    },
  };
}

/** Sends a file `fileFor` named: hashed assets cached for good, the others revalidated (ETag, Last-Modified). */
export function sendWebFile(reply: FastifyReply, file: string): FastifyReply {
  return file.startsWith(HASHED_ASSETS)
    ? reply.sendFile(file, { maxAge: ONE_YEAR_MS, immutable: true })
    : reply.sendFile(file, { maxAge: 0 });
}

/** Sends index.html (with `transform` applied), never cached without asking: it names the current build's assets. */
export async function sendWebPage(reply: FastifyReply, webRoot: WebRoot, transform: (html: string) => string = (html) => html): Promise<FastifyReply> {
  const html = await webRoot.indexHtml();
  if (html === null) return reply.status(503).header('Retry-After', '5').send({ error: 'The web client is being built: try again in a moment' });
  return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(transform(html));
}
