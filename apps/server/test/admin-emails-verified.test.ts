import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, describeApi, GOOD_PASSWORD, signUp, startTestServer, uniqueEmail, type TestServer } from './helpers';
import { linkIn, startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';

/**
 * ADMIN_EMAILS while the server runs: a listed address becomes an admin the moment it is verified
 * (sign-up link or confirmed e-mail change), not only at the next start, which is what a first
 * self-hosted install meets (start with ADMIN_EMAILS, sign up, open the link, open /admin).
 */
describeApi('ADMIN_EMAILS applied when an address is verified', () => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  const listed = uniqueEmail('staff');
  const listedLater = uniqueEmail('staff-later');

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ config: { smtpUrl: smtp.url, admin: { emails: [listed, listedLater], testEmailDomains: [], testEmailMarker: null } } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const verifyLink = async (email: string, subject: RegExp) =>
    linkIn(await smtp.waitForMail(email, { subject }), '/verify-email').token;

  it('makes a listed account an admin when its sign-up link is opened, without a restart', async () => {
    const { api } = await signUp(server.url, listed);
    expect((await api.get('/v1/user')).body.isAdmin).toBe(false);
    expect((await api.get('/v1/admin/users')).status).toBe(403);

    const token = await verifyLink(listed, /Verify/);
    const verified = await apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`);
    expect(verified.status).toBe(200);
    expect(verified.body.profile.isAdmin).toBe(true);
    expect((await api.get('/v1/user')).body.isAdmin).toBe(true);
    expect((await api.get('/v1/admin/users')).status).toBe(200);
  });

  it('leaves an unlisted account no admin when it verifies its address', async () => {
    const email = uniqueEmail('plain');
    const { api } = await signUp(server.url, email);
    const token = await verifyLink(email, /Verify/);
    expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`)).body.profile.isAdmin).toBe(false);
    expect((await api.get('/v1/admin/users')).status).toBe(403);
  });

  it('gives and takes the flag with a confirmed change of address', async () => {
    const { api } = await signUp(server.url, uniqueEmail('mover'));
    expect((await api.post('/v1/user/update-email', { email: listedLater, currentPassword: GOOD_PASSWORD })).status).toBe(200);
    const toListed = await apiClient(server.url).get(`/v1/auth/verify-email?token=${await verifyLink(listedLater, /Confirm your new/)}`);
    expect(toListed.body.profile.isAdmin).toBe(true);

    const signIn = await apiClient(server.url).post('/v1/auth/signin', { email: listedLater, password: GOOD_PASSWORD, timezone: 'UTC' });
    const admin = apiClient(server.url, signIn.body.token);
    expect((await admin.get('/v1/admin/users')).status).toBe(200);
    const unlisted = uniqueEmail('moved-away');
    expect((await admin.post('/v1/user/update-email', { email: unlisted, currentPassword: GOOD_PASSWORD })).status).toBe(200);
    const away = await apiClient(server.url).get(`/v1/auth/verify-email?token=${await verifyLink(unlisted, /Confirm your new/)}`);
    expect(away.body.profile.isAdmin).toBe(false);
  });
});
