import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, describeApi, signUp, startTestServer, uniqueEmail, type TestServer, useTestServer } from './helpers';
import { startGoogleIdentityProvider, type GoogleIdentityProvider } from './support/google-jwks';

describeApi('Google sign-in against a local JWKS', () => {
  let google: GoogleIdentityProvider;
  let server: TestServer;
  beforeAll(async () => {
    google = await startGoogleIdentityProvider();
    server = await startTestServer({ config: { googleClientId: google.clientId, googleJwksUrl: google.jwksUrl } });
  });
  afterAll(async () => {
    await server?.close();
    await google?.close();
  });

  const signIn = (token: string) => apiClient(server.url).post('/v1/auth/google', { token, timezone: 'Europe/Paris' });

  it('creates a verified Google account from a correctly signed token, and signs it in again later', async () => {
    const email = uniqueEmail('google');
    const res = await signIn(await google.signIdToken({ email }));
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ email, authProvider: 'google', emailVerified: true, timezone: 'Europe/Paris' });
    expect((await apiClient(server.url, res.body.token).get('/v1/user')).body.email).toBe(email);

    const again = await signIn(await google.signIdToken({ email: email.toUpperCase() }));
    expect(again.status).toBe(200);
    expect(again.body.profile.id).toBe(res.body.profile.id);
    expect(again.body.token).not.toBe(res.body.token);
  });

  it('signs two racing first sign-ins in to one new account', async () => {
    const email = uniqueEmail('google-race');
    const results = await Promise.all([0, 1, 2].map(async () => signIn(await google.signIdToken({ email }))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.profile.id)).size).toBe(1);
  });

  it('signs in the existing e-mail account with the same address', async () => {
    const { email, profile } = await signUp(server.url);
    const res = await signIn(await google.signIdToken({ email }));
    expect(res.status).toBe(200);
    expect(res.body.profile.id).toBe(profile.id);
  });

  it.each([
    ['a signature by another key', { foreignKey: true }],
    ['the wrong audience', { audience: 'someone-else.apps.googleusercontent.com' }],
    ['the wrong issuer', { issuer: 'https://evil.example.com' }],
    ['an expired token', { issuedAt: Math.floor(Date.now() / 1000) - 7200, expiresAt: Math.floor(Date.now() / 1000) - 3600 }],
    ['an unverified e-mail', { emailVerified: false }],
  ])('refuses %s', async (_what, options) => {
    const email = uniqueEmail('google-bad');
    const res = await signIn(await google.signIdToken({ email, ...options }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Google login failed' });
    // No account was created for the address.
    const signUpLater = await apiClient(server.url).post('/v1/auth/signup', { email, password: 'correct-horse-42!' });
    expect(signUpLater.status).toBe(200);
  });

  it('refuses garbage and a token with its payload altered', async () => {
    expect((await signIn('not-a-jwt')).status).toBe(401);
    const token = await google.signIdToken({ email: uniqueEmail('google-alter') });
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ email: 'admin@example.com', email_verified: true, iss: 'https://accounts.google.com', aud: google.clientId, exp: 9999999999 })).toString('base64url');
    const res = await signIn(`${header}.${forged}.${signature}`);
    expect(res.status).toBe(401);
  });

  it('has no password to change', async () => {
    const res = await signIn(await google.signIdToken({ email: uniqueEmail('google-pw') }));
    const change = await apiClient(server.url, res.body.token).post('/v1/auth/change-password', { currentPassword: 'anything', newPassword: 'long-enough-42!' });
    expect(change.status).toBe(400);
    expect(change.body).toEqual({ error: 'Password change is only available for email accounts' });
  });

  it('publishes the client id in the public config', async () => {
    const res = await apiClient(server.url).get('/v1/config');
    expect(res.body.googleClientId).toBe(google.clientId);
  });
});

describeApi('Google sign-in without GOOGLE_CLIENT_ID', () => {
  const server = useTestServer({ config: { googleClientId: null } });

  it('is off: 404, and the public config has no client id', async () => {
    const res = await apiClient(server.url).post('/v1/auth/google', { token: 'x.y.z' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Google sign-in is not enabled on this server');
    expect((await apiClient(server.url).get('/v1/config')).body.googleClientId).toBeNull();
  });
});
