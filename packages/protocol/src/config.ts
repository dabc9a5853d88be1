import { z } from 'zod';

/** `GET /v1/config`: what the dashboard needs to know about this server before anyone signs in. */
export const PublicConfig = z.object({
  /** Google sign-in is offered only when the server has a client id. */
  googleClientId: z.string().nullable(),
  /** External scheduling page behind the sidebar's Book Demo item. */
  bookDemoUrl: z.string().nullable(),
  demoMode: z.boolean(),
  /** The server's version, shown in Settings → Version. */
  version: z.string(),
  /** Base URL of the public share host: the dashboard's /shared-sessions/{id} reads data.json there. */
  shareUrl: z.string(),
  /** The companion app's store pages (connect screen, Option 1): shown only when configured. */
  appStoreUrl: z.string().nullable(),
  googlePlayUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
