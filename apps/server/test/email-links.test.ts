import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, describeApi, GOOD_PASSWORD, signUp, startTestServer, uniqueEmail, type TestServer } from './helpers';
import { linkIn, startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';

const HOUR = 60 * 60 * 1000;
const VERIFY_FAILED = 'Email verification failed. Please try again or request a new verification email.';
const RESET_FAILED = 'This reset link is invalid or has expired. Please request a new one.';

describeApi('e-mail links: verification and password reset through a real SMTP receiver', () => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  // The server's clock; tests move it to expire links.
  let clock = Date.now();
  const PUBLIC_URL = 'https://spyglass.example.test';

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, now: () => clock });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const verifyMailTo = (email: string, after = 0) =>
    smtp.waitForMail(email, { subject: /Verify/, since: after });
  const resetMailTo = (email: string, after = 0) =>
    smtp.waitForMail(email, { subject: /Reset/, since: after });
  const changeMailTo = (email: string, after = 0) =>
    smtp.waitForMail(email, { subject: /Confirm your new/, since: after });

  describe('verification', () => {
    it('mails a link on sign-up that verifies the address once', async () => {
      const { email, api } = await signUp(server.url, uniqueEmail('verify'));
      const mail = await verifyMailTo(email);
      const { url, token } = linkIn(mail, '/verify-email');
      expect(url.origin).toBe(PUBLIC_URL);
      expect(mail.text).toContain('24 hours');

      const res = await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(res.body.profile).toMatchObject({ email, emailVerified: true });
      expect((await api.get('/v1/user')).body.emailVerified).toBe(true);

      const again = await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: VERIFY_FAILED });
    });

    it('expires the link after 24 hours', async () => {
      const { email, api } = await signUp(server.url, uniqueEmail('verify-expiry'));
      const { token } = linkIn(await verifyMailTo(email), '/verify-email');
      clock += 24 * HOUR + 1000;
      try {
        const res = await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: VERIFY_FAILED });
        expect((await api.get('/v1/user')).body.emailVerified).toBe(false);
      } finally {
        clock = Date.now();
      }
    });

    it('is still valid just before 24 hours', async () => {
      const { email } = await signUp(server.url, uniqueEmail('verify-late'));
      const { token } = linkIn(await verifyMailTo(email), '/verify-email');
      clock += 24 * HOUR - 60_000;
      try {
        const res = await apiClient(server.url).get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
        expect(res.status).toBe(200);
      } finally {
        clock = Date.now();
      }
    });

    it('resends a new link that voids the older one', async () => {
      const { email } = await signUp(server.url, uniqueEmail('resend'));
      const first = linkIn(await verifyMailTo(email), '/verify-email').token;
      const before = smtp.mails.length;
      const res = await apiClient(server.url).post('/v1/auth/resend-verification', { email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Verification email sent! Please check your inbox.' });
      const second = linkIn(await verifyMailTo(email, before), '/verify-email').token;
      expect(second).not.toBe(first);

      expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${first}`)).status).toBe(400);
      expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${second}`)).status).toBe(200);
    });

    it('answers the same for unknown addresses without sending mail', async () => {
      const email = uniqueEmail('ghost');
      const res = await apiClient(server.url).post('/v1/auth/resend-verification', { email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Verification email sent! Please check your inbox.' });
      const forgot = await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      expect(forgot.status).toBe(200);
      // A later mail to a real account arrives; none ever went to the unknown address.
      const { email: real } = await signUp(server.url);
      await verifyMailTo(real);
      expect(smtp.mails.some((m) => m.to.includes(email))).toBe(false);
    });

    it("answers 'Invalid verification link' without a token and rejects a forged one", async () => {
      const missing = await apiClient(server.url).get('/v1/auth/verify-email?token=');
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('Invalid verification link');
      const forged = await apiClient(server.url).get('/v1/auth/verify-email?token=forged-token');
      expect(forged.status).toBe(400);
      expect(forged.body).toEqual({ error: VERIFY_FAILED });
    });

    it('lets one of three racing clicks on a link win', async () => {
      const { email } = await signUp(server.url, uniqueEmail('verify-race'));
      const { token } = linkIn(await verifyMailTo(email), '/verify-email');
      const results = await Promise.all([0, 1, 2].map(() => apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    });

    it('voids the links mailed to the old address once a change of address is confirmed', async () => {
      const { api, email: old } = await signUp(server.url, uniqueEmail('old-address'));
      const verifyOld = linkIn(await verifyMailTo(old), '/verify-email').token;
      await apiClient(server.url).post('/v1/auth/forgot-password', { email: old });
      const resetOld = linkIn(await resetMailTo(old), '/reset-password').token;
      const next = uniqueEmail('new-address');
      expect((await api.post('/v1/user/update-email', { email: next, currentPassword: GOOD_PASSWORD })).status).toBe(200);
      const { token } = linkIn(await changeMailTo(next), '/verify-email');
      expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`)).status).toBe(200);
      expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${verifyOld}`)).status).toBe(400);
      expect((await apiClient(server.url).post('/v1/auth/reset-password', { token: resetOld, newPassword: 'strong-pass-9!' })).status).toBe(400);
    });

    it('mails a confirmation link after an e-mail change that moves the account to the new, verified address', async () => {
      const { api, email: old } = await signUp(server.url);
      const email = uniqueEmail('changed');
      const res = await api.post('/v1/user/update-email', { email, currentPassword: GOOD_PASSWORD });
      expect(res.status).toBe(200);
      expect((await api.get('/v1/user')).body).toMatchObject({ email: old, emailVerified: false });
      const mail = await changeMailTo(email);
      expect(mail.text).toContain('24 hours');
      const { url, token } = linkIn(mail, '/verify-email');
      expect(url.origin).toBe(PUBLIC_URL);
      expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`)).body.profile).toMatchObject({ email, emailVerified: true });
    });

    it('gives a contested address to exactly one of two accounts confirming at once', async () => {
      const a = await signUp(server.url);
      const b = await signUp(server.url);
      const email = uniqueEmail('contested');
      const since = smtp.mails.length;
      for (const account of [a, b]) expect((await account.api.post('/v1/user/update-email', { email, currentPassword: GOOD_PASSWORD })).status).toBe(200);
      const links = () => smtp.mails.slice(since).filter((m) => m.to.includes(email));
      await expect.poll(() => links().length).toBe(2);
      const tokens = links().map((m) => linkIn(m, '/verify-email').token);
      const results = await Promise.all(tokens.map((t) => apiClient(server.url).get(`/v1/auth/verify-email?token=${t}`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body).toEqual({ error: 'Email already in use' });
    });
  });

  describe('password reset', () => {
    it('mails a link that sets a new password once and revokes every session', async () => {
      const { email, api } = await signUp(server.url, uniqueEmail('reset'));
      const res = await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Password reset email sent! Please check your inbox.' });
      const mail = await resetMailTo(email);
      const { url, token } = linkIn(mail, '/reset-password');
      expect(url.origin).toBe(PUBLIC_URL);

      const reset = await apiClient(server.url).post('/v1/auth/reset-password', { token, newPassword: 'brand-new-pw-7?' });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ message: 'Password successfully reset! Please login with your new password.' });
      expect((await api.get('/v1/user')).status).toBe(401);
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD })).status).toBe(401);
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: 'brand-new-pw-7?' })).status).toBe(200);

      const again = await apiClient(server.url).post('/v1/auth/reset-password', { token, newPassword: 'another-pw-8?' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: RESET_FAILED });
    });

    it('expires the link after 1 hour', async () => {
      const { email } = await signUp(server.url, uniqueEmail('reset-expiry'));
      await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      const { token } = linkIn(await resetMailTo(email), '/reset-password');
      clock += HOUR + 1000;
      try {
        const res = await apiClient(server.url).post('/v1/auth/reset-password', { token, newPassword: 'brand-new-pw-7?' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: RESET_FAILED });
      } finally {
        clock = Date.now();
      }
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD })).status).toBe(200);
    });

    it('applies the sign-up password rules and keeps the link usable after a refused password', async () => {
      const { email } = await signUp(server.url, uniqueEmail('reset-rules'));
      await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      const { token } = linkIn(await resetMailTo(email), '/reset-password');
      const weak = await apiClient(server.url).post('/v1/auth/reset-password', { token, newPassword: 'weak' });
      expect(weak.status).toBe(400);
      expect(weak.body.error.split('\n')).toEqual([
        'Password must be at least 10 characters long',
        'Password must contain at least one number',
        'Password must contain at least one special character',
      ]);
      expect((await apiClient(server.url).post('/v1/auth/reset-password', { token, newPassword: 'strong-pass-9!' })).status).toBe(200);
    });

    it('voids the older link when a new one is requested, and a verify link cannot reset', async () => {
      const { email } = await signUp(server.url, uniqueEmail('reset-twice'));
      const verifyToken = linkIn(await verifyMailTo(email), '/verify-email').token;
      expect((await apiClient(server.url).post('/v1/auth/reset-password', { token: verifyToken, newPassword: 'strong-pass-9!' })).status).toBe(400);

      await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      const first = linkIn(await resetMailTo(email), '/reset-password').token;
      const before = smtp.mails.length;
      await apiClient(server.url).post('/v1/auth/forgot-password', { email });
      const second = linkIn(await resetMailTo(email, before), '/reset-password').token;
      expect((await apiClient(server.url).post('/v1/auth/reset-password', { token: first, newPassword: 'strong-pass-9!' })).status).toBe(400);
      expect((await apiClient(server.url).post('/v1/auth/reset-password', { token: second, newPassword: 'strong-pass-9!' })).status).toBe(200);
    });

    it('needs an e-mail to request a link', async () => {
      const res = await apiClient(server.url).post('/v1/auth/forgot-password', {});
      expect(res.status).toBe(400);
    });
  });
});

describeApi('e-mail without SMTP_URL', () => {
  let server: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    server = await startTestServer({ logger: { level: 'info', stream }, config: { smtpUrl: null, publicUrl: 'http://sg.local' } });
  });
  afterAll(() => server?.close());

  it('writes the whole message with its link to the log', async () => {
    const { email } = await signUp(server.url, uniqueEmail('logged'));
    const entry = lines.map((l) => JSON.parse(l) as { msg?: string; mail?: { to: string; text: string } })
      .find((e) => e.mail?.to === email);
    expect(entry?.mail?.text).toMatch(/http:\/\/sg\.local\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    const token = /token=([A-Za-z0-9_-]+)/.exec(entry!.mail!.text)![1]!;
    expect((await apiClient(server.url).get(`/v1/auth/verify-email?token=${token}`)).status).toBe(200);
  });
});
