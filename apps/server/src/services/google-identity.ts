import type { createRemoteJWKSet } from 'jose';
import type { AppContext } from '../context';
import { notFound, unauthorized } from '../errors';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

export interface GoogleIdentity {
  email: string;
}

let jwks: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | null = null;

/**
 * Verifies signature (against the configured JWKS), audience, issuer and expiry of a Google ID token;
 * with `maxAgeS`, also that the sign-in it records is that recent.
 */
export async function verifyGoogleIdToken(ctx: AppContext, idToken: string, options: { maxAgeS?: number } = {}): Promise<GoogleIdentity> {
  const clientId = ctx.config.googleClientId;
  if (!clientId) throw notFound('Google sign-in is not enabled on this server');
  // jose is loaded on the first Google sign-in rather than at start-up.
  const { createRemoteJWKSet, jwtVerify } = await import('jose');
  if (jwks?.url !== ctx.config.googleJwksUrl) {
    jwks = { url: ctx.config.googleJwksUrl, set: createRemoteJWKSet(new URL(ctx.config.googleJwksUrl)) };
  }
  try {
    const { payload } = await jwtVerify(idToken, jwks.set, {
      issuer: GOOGLE_ISSUERS,
      audience: clientId,
      currentDate: new Date(ctx.now()),
      // A token this recent may carry an issue time a little ahead of our clock.
      ...(options.maxAgeS !== undefined ? { maxTokenAge: options.maxAgeS, clockTolerance: 60 } : {}),
    });
    if (typeof payload.email !== 'string' || payload.email_verified !== true) throw new Error('email not verified');
    return { email: payload.email.toLowerCase() };
  } catch {
    throw unauthorized('Google login failed');
  }
}
