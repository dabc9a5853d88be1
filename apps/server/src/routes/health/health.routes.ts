import { z } from 'zod';
import { SdkVersionResponse } from '@spyglass/protocol';
import type { App } from '../../context';

export async function healthRoutes(app: App): Promise<void> {
  app.get('/healthz', { schema: { hide: true, response: { 200: z.object({ ok: z.literal(true) }) } } }, async () => ({ ok: true as const }));
}

export async function versionRoutes(app: App): Promise<void> {
  app.get('/version/server', { schema: { response: { 200: z.object({ version: z.string() }) } } }, async () => ({
    version: app.ctx.config.serverVersion,
  }));
  // Spec 001 §7: no auth; the dashboard's SDK-outdated tooltip names the latest version.
  app.get('/version/ios-sdk-version', { schema: { response: { 200: SdkVersionResponse } } }, async () => ({
    version: app.ctx.config.latestSdkVersions.ios,
  }));
  app.get('/version/android-sdk-version', { schema: { response: { 200: SdkVersionResponse } } }, async () => ({
    version: app.ctx.config.latestSdkVersions.android,
  }));
}
