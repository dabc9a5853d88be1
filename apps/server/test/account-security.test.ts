import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, describeApi, GOOD_PASSWORD, signUp, startTestServer, uniqueEmail, type TestServer } from './helpers';
import { closeOf, connectViewer } from './live-clients';
import { startGoogleIdentityProvider, type GoogleIdentityProvider } from './support/google-jwks';
import { linkIn, startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';

const HOUR = 60 * 60 * 1000;
const NEW_PASSWORD = 'another-Secret-7!';

// Issue 12, defect 3 (account takeover with a stolen token) and the account parts of defect 8.
describeApi('account takeover with a stolen token', () => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  let google: GoogleIdentityProvider;
  // The server's clock; the lifetime tests move it.
  let clock = Date.now();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    google = await startGoogleIdentityProvider();
    server = await startTestServer({
      config: { smtpUrl: smtp.url, googleClientId: google.clientId, googleJwksUrl: google.jwksUrl, authTokens: { idleTimeoutMs: 24 * HOUR, maxAgeMs: 72 * HOUR } },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await google?.close();
  });

  it('refuses the whole chain: a token alone cannot change the e-mail, so forgot-password cannot reach the thief', async () => {
    const victim = await signUp(server.url, uniqueEmail('victim'));
    const thief = uniqueEmail('thief');
    // The thief holds only the victim's token.
    const stolen = apiClient(server.url, victim.token);
    const noPassword = await stolen.post('/v1/user/update-email', { email: thief });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({ error: 'Please enter your current password to change your email' });
    const guessed = await stolen.post('/v1/user/update-email', { email: thief, currentPassword: 'password123!' });
    expect(guessed.status).toBe(400);
    expect(guessed.body).toEqual({ error: 'Current password is incorrect' });

    expect((await stolen.get('/v1/user')).body.email).toBe(victim.email);
    await apiClient(server.url).post('/v1/auth/forgot-password', { email: thief });
    expect((await apiClient(server.url).post('/v1/auth/signin', { email: thief, password: GOOD_PASSWORD })).status).toBe(401);
    expect(smtp.mails.filter((m) => m.to.includes(thief))).toEqual([]);
  });

  it("changes the owner's e-mail only through the link mailed to the new address, tells the old one, and revokes every token", async () => {
    const owner = await signUp(server.url, uniqueEmail('owner'));
    const otherBrowser = (await apiClient(server.url).post('/v1/auth/signin', { email: owner.email, password: GOOD_PASSWORD })).body.token as string;
    const viewer = await connectViewer(server.url, otherBrowser);
    const next = uniqueEmail('moved');
    const mailsBefore = smtp.mails.length;

    const asked = await owner.api.post('/v1/user/update-email', { email: next, currentPassword: GOOD_PASSWORD });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ pendingEmail: next });

    const notice = await smtp.waitForMail(owner.email, { subject: /being changed/, since: mailsBefore });
    expect(notice.text).toContain(next);
    const confirm = await smtp.waitForMail(next, { subject: /Confirm your new/, since: mailsBefore });
    // Nothing changed yet: the old address still signs in, the new one does not.
    expect((await owner.api.get('/v1/user')).body).toMatchObject({ email: owner.email });
    expect((await apiClient(server.url).post('/v1/auth/signin', { email: next, password: GOOD_PASSWORD })).status).toBe(401);

    const { token } = linkIn(confirm, '/verify-email');
    const closed = closeOf(viewer.ws);
    const applied = await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(applied.status).toBe(200);
    expect(applied.body.profile).toMatchObject({ email: next, emailVerified: true });

    // Every token is revoked, and the live connection of the other browser is closed at once.
    expect((await owner.api.get('/v1/user')).status).toBe(401);
    expect((await apiClient(server.url, otherBrowser).get('/v1/user')).status).toBe(401);
    expect((await closed).code).toBe(4401);
    expect((await apiClient(server.url).post('/v1/auth/signin', { email: owner.email, password: GOOD_PASSWORD })).status).toBe(401);
    expect((await apiClient(server.url).post('/v1/auth/signin', { email: next, password: GOOD_PASSWORD })).status).toBe(200);
    // The link works once.
    expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(400);
  });

  it('voids an earlier change link when a newer change is asked for', async () => {
    const owner = await signUp(server.url, uniqueEmail('twice'));
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    const mailsBefore = smtp.mails.length;
    expect((await owner.api.post('/v1/user/update-email', { email: first, currentPassword: GOOD_PASSWORD })).status).toBe(200);
    const firstLink = linkIn(await smtp.waitForMail(first, { subject: /Confirm/, since: mailsBefore }), '/verify-email').token;
    expect((await owner.api.post('/v1/user/update-email', { email: second, currentPassword: GOOD_PASSWORD })).status).toBe(200);
    expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${firstLink}`)).status).toBe(400);
    expect((await owner.api.get('/v1/user')).body.email).toBe(owner.email);
  });

  it('asks a Google account for a Google sign-in made just now', async () => {
    const email = uniqueEmail('google-owner');
    const signedIn = await apiClient(server.url).post('/v1/auth/google', { token: await google.signIdToken({ email }) });
    const api = apiClient(server.url, signedIn.body.token);
    const next = uniqueEmail('google-moved');
    expect((await api.post('/v1/user/update-email', { email: next })).body).toEqual({ error: 'Please sign in with Google again to change your email' });
    const stale = await google.signIdToken({ email, issuedAt: Math.floor(clock / 1000) - 3600, expiresAt: Math.floor(clock / 1000) + 600 });
    expect((await api.post('/v1/user/update-email', { email: next, googleToken: stale })).status).toBe(401);
    const someoneElse = await google.signIdToken({ email: uniqueEmail('google-thief') });
    expect((await api.post('/v1/user/update-email', { email: next, googleToken: someoneElse })).status).toBe(401);
    const fresh = await google.signIdToken({ email });
    expect((await api.post('/v1/user/update-email', { email: next, googleToken: fresh })).status).toBe(200);
  });

  it("refuses a new password weaker than sign-up's rules in the change-password dialog", async () => {
    const { api } = await signUp(server.url);
    const weak = await api.post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'aaaaaaaa' });
    expect(weak.status).toBe(400);
    for (const rule of ['at least 10 characters', 'at least one number', 'at least one special character']) expect(weak.body.error).toContain(rule);
    expect((await api.post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
  });

  describe('token lifetimes', () => {
    it('ends a token unused for the idle timeout, and slides the deadline with each use', async () => {
      const used = await signUp(server.url);
      const unused = await signUp(server.url);
      try {
        // 60 hours after the sign-in: each use moved the idle deadline on.
        for (let i = 0; i < 3; i++) {
          clock += 20 * HOUR;
          expect((await used.api.get('/v1/user')).status).toBe(200);
        }
        expect((await unused.api.get('/v1/user')).status).toBe(401);
        expect((await used.api.get('/v1/user')).status).toBe(200);
      } finally {
        clock = Date.now();
      }
    });

    it('ends a token at its absolute lifetime however often it is used', async () => {
      const { api } = await signUp(server.url);
      try {
        clock += 12 * HOUR;
        expect((await api.get('/v1/user')).status).toBe(200);
        clock += 20 * HOUR;
        expect((await api.get('/v1/user')).status).toBe(200);
        clock += 20 * HOUR;
        expect((await api.get('/v1/user')).status).toBe(200);
        clock += 21 * HOUR;
        expect((await api.get('/v1/user')).status).toBe(401);
      } finally {
        clock = Date.now();
      }
    });

    it('ends an idle token after the idle timeout alone', async () => {
      const { api } = await signUp(server.url);
      try {
        clock += 23 * HOUR;
        expect((await api.get('/v1/user')).status).toBe(200);
        clock += 24 * HOUR + 1000;
        expect((await api.get('/v1/user')).status).toBe(401);
      } finally {
        clock = Date.now();
      }
    });
  });

  describe('live connections of revoked tokens and deleted accounts', () => {
    it('closes the viewer of a token signed out at once', async () => {
      const { api, token } = await signUp(server.url);
      const viewer = await connectViewer(server.url, token);
      const closed = closeOf(viewer.ws);
      expect((await api.post('/v1/auth/logout')).status).toBe(200);
      expect((await closed).code).toBe(4401);
    });

    it("closes the other browsers' viewers on a password change, and keeps the changing one", async () => {
      const owner = await signUp(server.url, uniqueEmail('pw-viewers'));
      const other = (await apiClient(server.url).post('/v1/auth/signin', { email: owner.email, password: GOOD_PASSWORD })).body.token as string;
      const mine = await connectViewer(server.url, owner.token);
      const theirs = await connectViewer(server.url, other);
      const closed = closeOf(theirs.ws);
      expect((await owner.api.post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
      expect((await closed).code).toBe(4401);
      await mine.subscribe(null);
      await mine.close();
    });

    it('closes every viewer of a deleted account at once', async () => {
      const { api, token, profile } = await signUp(server.url);
      const viewers = await Promise.all([connectViewer(server.url, token), connectViewer(server.url, token)]);
      const closed = viewers.map((v) => closeOf(v.ws));
      expect((await api.delete(`/v1/user/${profile.id}`)).status).toBe(200);
      expect((await Promise.all(closed)).map((c) => c.code)).toEqual([4401, 4401]);
    });
  });
});

describeApi('rate limits that cannot lock the owner out', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a proxy, so the test can speak from several client addresses.
    server = await startTestServer({ config: { trustProxy: true, authRateLimit: { perIp: 1000, perEmail: 3, windowS: 60, emailChangesPerHour: 2 } } });
  });
  afterAll(() => server?.close());

  const signInFrom = (ip: string, email: string, password: string) =>
    apiClient(server.url).post('/v1/auth/signin', { email, password }, { 'x-forwarded-for': ip });

  it('blocks a stranger who keeps failing on an account, while the owner on a known address still signs in', async () => {
    const { email } = await signUp(server.url);
    // The owner signs in from home once: that address is now known for the account.
    expect((await signInFrom('198.51.100.7', email, GOOD_PASSWORD)).status).toBe(200);

    // One stranger's address: blocked after three failures, even with the right password.
    for (let i = 0; i < 3; i++) expect((await signInFrom('203.0.113.1', email, 'wrong-password-1!')).status).toBe(401);
    const blocked = await signInFrom('203.0.113.1', email, GOOD_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/^Too many attempts, please try again in \d+s$/);

    // Failures spread over other addresses spend the account's own budget: new addresses are refused...
    for (let i = 2; i < 5; i++) await signInFrom(`203.0.113.${i}`, email, 'wrong-password-1!');
    expect((await signInFrom('203.0.113.99', email, GOOD_PASSWORD)).status).toBe(429);
    // ...but the owner at home gets in.
    expect((await signInFrom('198.51.100.7', email, GOOD_PASSWORD)).status).toBe(200);
    // Other accounts are untouched.
    const other = await signUp(server.url);
    expect((await signInFrom('203.0.113.1', other.email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('rate-limits e-mail changes per account (each answer tells whether an address is taken)', async () => {
    const { api } = await signUp(server.url);
    const taken = await signUp(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post('/v1/user/update-email', { email: taken.email, currentPassword: GOOD_PASSWORD })).status);
    expect(statuses).toEqual([400, 400, 429, 429]);
  });
});
