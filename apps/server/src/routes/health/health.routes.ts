import { z } from 'zod';
import type { App } from '../../context';

export async function healthRoutes(app: App): Promise<void> {
  app.get('/healthz', { schema: { hide: true, response: { 200: z.object({ ok: z.literal(true) }) } } }, async () => ({ ok: true as const }));
}

export async function versionRoutes(app: App): Promise<void> {
  app.get('/version/server', { schema: { response: { 200: z.object({ version: z.string() }) } } }, async () => ({
    version: app.ctx.config.serverVersion,
  }));
}
