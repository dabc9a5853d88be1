import { PublicConfig } from '@spyglass/protocol';
import type { App } from '../../context';

/** `GET /v1/config`: public, so the sign-in page can hide Google sign-in and the demo toggle before anyone signs in. */
export async function configRoutes(app: App): Promise<void> {
  const { config } = app.ctx;
  const body: PublicConfig = {
    googleClientId: config.googleClientId,
    bookDemoUrl: config.bookDemoUrl,
    demoMode: config.demoMode,
    version: config.serverVersion,
    shareUrl: config.shareUrl,
    appStoreUrl: config.appStoreUrl,
    googlePlayUrl: config.googlePlayUrl,
  };
  app.get('/config', { schema: { response: { 200: PublicConfig } } }, async () => body);
}
