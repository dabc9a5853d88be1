import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

export const GOOGLE_ISSUER = 'https://accounts.google.com';

export interface IdTokenOptions {
  email: string;
  audience?: string;
  issuer?: string;
  /** Seconds since the epoch; defaults to an hour after `issuedAt`. */
  expiresAt?: number;
  issuedAt?: number;
  emailVerified?: boolean;
  /** Sign with a key the JWKS does not publish (under the published key id). */
  foreignKey?: boolean;
}

/**
 * Plays Google's part in sign-in: serves a JWKS over HTTP on a random local port (the server's
 * `GOOGLE_JWKS_URL`) and signs ID tokens with its private key, so the server's real verification
 * (signature, audience, issuer, expiry) runs against real cryptography.
 */
export interface GoogleIdentityProvider {
  jwksUrl: string;
  clientId: string;
  signIdToken(options: IdTokenOptions): Promise<string>;
  close(): Promise<void>;
}

const KID = 'spyglass-test-key';

export async function startGoogleIdentityProvider(clientId = 'spyglass-test.apps.googleusercontent.com'): Promise<GoogleIdentityProvider> {
  const published = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const body = JSON.stringify({ keys: [jwk] });

  const server = http.createServer((req, res) => {
    if (req.url !== '/oauth2/v3/certs') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    clientId,
    async signIdToken(o) {
      const iat = o.issuedAt ?? Math.floor(Date.now() / 1000);
      const claims: JWTPayload = { email: o.email, email_verified: o.emailVerified ?? true, name: 'Test User' };
      const key: CryptoKey = o.foreignKey ? foreign.privateKey : published.privateKey;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
        .setIssuer(o.issuer ?? GOOGLE_ISSUER)
        .setAudience(o.audience ?? clientId)
        .setSubject(`google-${o.email}`)
        .setIssuedAt(iat)
        .setExpirationTime(o.expiresAt ?? iat + 3600)
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
