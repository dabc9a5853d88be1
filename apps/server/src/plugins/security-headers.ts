import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Google Identity Services, when Google sign-in is configured (its documented CSP needs). */
const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const GOOGLE_GSI = 'https://accounts.google.com/gsi/';

export interface SecurityHeaderOptions {
  /** Origins the page may call besides its own (the share host, for the dashboard's shared-session route). */
  connectTo?: string[];
  /** Allow the Google sign-in button. */
  google?: boolean;
  referrerPolicy: 'no-referrer' | 'strict-origin-when-cross-origin';
}

/**
 * Headers on every answer of a host (pages, files, API, errors), through helmet:
 * - a Content-Security-Policy that runs only our own script files (no inline script, no eval),
 *   so that an injection into the page has nothing to run; styles may be inline because toasts
 *   and the code editor insert their own `<style>` elements; images and media also from data: and
 *   blob: URLs (screenshots, captured media); no plugins, no `<base>`, and no framing by anyone
 *   (`frame-ancestors 'none'`, with `X-Frame-Options: DENY` for older browsers);
 * - `nosniff`, and a referrer policy that keeps paths (session ids) to ourselves.
 * No `upgrade-insecure-requests` and no HSTS: a self-hosted server is often reached over plain
 * HTTP on a LAN address, and HTTPS is the business of the proxy in front of it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  const google = options.google ? [GOOGLE_GSI] : [];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(options.google ? [GOOGLE_SCRIPT] : [])],
        styleSrc: ["'self'", "'unsafe-inline'", ...google],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(options.connectTo ?? []), ...google],
        frameSrc: ["'self'", ...google],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: options.referrerPolicy },
    strictTransportSecurity: false,
    // Google's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
}
