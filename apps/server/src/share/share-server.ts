import { Readable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SESSION_MESSAGES, SHARE_HOST_META } from '@spyglass/protocol';
import type { AppContext } from '../context';
import { capConnectionsPerIp, httpServerOptions } from '../plugins/http-limits';
import { registerSecurityHeaders } from '../plugins/security-headers';
import { sendWebFile, sendWebPage, type WebRoot } from '../plugins/web-root';
import { findSharedSession, toSharedSessionInfo } from '../repositories/sessions.repository';
import { sharedSessionJson } from './shared-session-json';

declare module 'fastify' {
  interface FastifyInstance {
    /** The share host built beside the API (see buildApp); listens on SHARE_PORT. */
    shareServer: FastifyInstance;
  }
}

const SESSION_ID = /^[A-Za-z0-9]{1,100}$/;

/**
 * The public share host (SHARE_PORT): a listener of its own, so that nothing of the API, the
 * live channel or an account is reachable through it. It answers the shared data, the read-only
 * page and the web client's static files, and reads no token or cookie.
 */
export async function buildShareServer(ctx: AppContext, log: FastifyBaseLogger, webRoot: WebRoot | null): Promise<FastifyInstance> {
  // Downloads are read-only and repeatable: on shutdown they are cut rather than waited for.
  const share = Fastify({ loggerInstance: log.child({ listener: 'share' }), forceCloseConnections: true, ...httpServerOptions(ctx.config.http) });
  capConnectionsPerIp(share.server, ctx.config.http.maxConnectionsPerIp);
  const notFound = { error: SESSION_MESSAGES.notFound };
  // Nobody outside needs the page's address: it holds the session id.
  await registerSecurityHeaders(share, { referrerPolicy: 'no-referrer' });

  share.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: 'Not found' }));
  share.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'share request failed');
    if (!reply.sent) reply.status(500).send({ error: 'Internal server error' });
  });

  share.get<{ Params: { id: string } }>('/shared-sessions/:id/data.json', async (req, reply) => {
    // Any page may read a public session (the dashboard's own /shared-sessions route is on another origin).
    reply.header('Access-Control-Allow-Origin', '*');
    const { id } = req.params;
    const row = SESSION_ID.test(id) ? await findSharedSession(ctx.db, id) : undefined;
    if (!row) return reply.status(404).send(notFound);
    // A shared session's items never change; its name and share state move updated_at. Caches must
    // ask every time (no-cache) so that turning sharing off takes effect at once.
    const etag = `"${row.id}.${Number(row.updated_at)}"`;
    reply.header('ETag', etag).header('Cache-Control', 'no-cache');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    reply.type('application/json; charset=utf-8');
    // One page read ahead: memory stays at a page or two per download, and a fast reader does
    // not wait on a queue of pages it did not ask for yet.
    return reply.send(Readable.from(sharedSessionJson(ctx.db, ctx.blobs, row.id, toSharedSessionInfo(row)), { highWaterMark: 1 }));
  });

  if (webRoot) {
    await share.register(fastifyStatic, { root: webRoot.dir, serve: false });
    // The same page as the dashboard's, marked so that it reads data.json from its own origin
    // and makes no call to an API that is not here. The mark holds the dashboard's address: this
    // host has no home page, so the page's way back (its logo, Return to Home) leads there.
    const dashboardUrl = ctx.config.publicUrl.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    const mark = (html: string) => html.replace('<head>', `<head><meta name="${SHARE_HOST_META}" content="${dashboardUrl}">`);
    share.get<{ Params: { id: string } }>('/shared-sessions/:id', (_req, reply) => sendWebPage(reply, webRoot, mark));
    // The page's own scripts, styles and icons, as WebRoot finds them; never index.html.
    share.get('/*', async (req, reply) => {
      const file = await webRoot.fileFor(req.url.split('?')[0] ?? '');
      return file ? sendWebFile(reply, file) : reply.status(404).send({ error: 'Not found' });
    });
  }
  return share;
}
