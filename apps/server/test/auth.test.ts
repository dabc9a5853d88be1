import crypto from 'node:crypto';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { API_KEY_RANDOM_LENGTH, PASSWORD_SPECIAL_CHARACTERS } from '@spyglass/protocol';
import { apiClient, describeApi, engine, GOOD_PASSWORD, signUp, uniqueEmail, useTestServer } from './helpers';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

const LENGTH = 'Password must be at least 10 characters long';
const NUMBER = 'Password must contain at least one number';
const SPECIAL = 'Password must contain at least one special character';

describeApi('auth: sign-up, sign-in, logout, change password', () => {
  const server = useTestServer();

  describe('sign-up', () => {
    it('answers a token and the profile of §3 with a live API key and both feature flags on', async () => {
      const email = uniqueEmail('signup');
      const res = await apiClient(server.url).post('/v1/auth/signup', {
        email, password: GOOD_PASSWORD, timezone: 'Europe/Berlin', referrer: 'product_hunt',
      });
      expect(res.status).toBe(200);
      expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body.profile).toMatchObject({
        email, emailVerified: false, authProvider: 'email', isAdmin: false, isFreeUser: true, isLockedUser: false,
        onboardingCompleted: false, featureFlags: { MOCK_APIS: true, USER_DEFAULTS: true },
        timezone: 'Europe/Berlin', referrer: 'product_hunt',
      });
      expect(res.body.profile.apiKey).toMatch(new RegExp(`^sg_live_[A-Za-z0-9]{${API_KEY_RANDOM_LENGTH}}$`));

      const me = await apiClient(server.url, res.body.token).get('/v1/user');
      expect(me.status).toBe(200);
      expect(me.body).toEqual(res.body.profile);
    });

    it('gives every account its own API key', async () => {
      const a = await signUp(server.url);
      const b = await signUp(server.url);
      expect(a.profile.apiKey).not.toBe(b.profile.apiKey);
    });

    it.each([
      ['short1!', [LENGTH]],
      ['no-number-here!', [NUMBER]],
      ['nospecial123', [SPECIAL]],
      ['abc', [LENGTH, NUMBER, SPECIAL]],
      ['', [LENGTH, NUMBER, SPECIAL]],
      ['abcdefghijk', [NUMBER, SPECIAL]],
    ])('rejects password %j with every failed rule of spec 000 §5, one per line', async (password, messages) => {
      const email = uniqueEmail('weak');
      const res = await apiClient(server.url).post('/v1/auth/signup', { email, password });
      expect(res.status).toBe(400);
      expect(res.body.error.split('\n')).toEqual(messages);
      // Nothing was stored: the address is still free.
      const retry = await apiClient(server.url).post('/v1/auth/signup', { email, password: GOOD_PASSWORD });
      expect(retry.status).toBe(200);
    });

    it('accepts each special character of the spec', async () => {
      // An invalid address makes the call fail after validation without hashing: only the e-mail is named.
      for (const c of PASSWORD_SPECIAL_CHARACTERS) {
        const res = await apiClient(server.url).post('/v1/auth/signup', { email: 'not-an-email', password: `abcdefgh1${c}` });
        expect(res.body, `special character ${c}`).toMatchObject({ error: 'Invalid email' });
      }
      const accepted = await apiClient(server.url).post('/v1/auth/signup', { email: uniqueEmail('special'), password: 'abcdefgh1"' });
      expect(accepted.status).toBe(200);
    });

    it("answers 'Email already in use' for a taken address, whatever its case", async () => {
      const { email } = await signUp(server.url);
      for (const again of [email, email.toUpperCase(), `  ${email}  `]) {
        const res = await apiClient(server.url).post('/v1/auth/signup', { email: again, password: GOOD_PASSWORD });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'Email already in use' });
      }
    });

    it('creates one account when sign-ups for one address race', async () => {
      const email = uniqueEmail('race');
      const results = await Promise.all([0, 1, 2].map(() => apiClient(server.url).post('/v1/auth/signup', { email, password: GOOD_PASSWORD })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const rows = await server.app.ctx.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    });

    it('rejects an invalid e-mail and unknown fields', async () => {
      const bad = await apiClient(server.url).post('/v1/auth/signup', { email: 'not-an-email', password: GOOD_PASSWORD });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Invalid email');
      const extra = await apiClient(server.url).post('/v1/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, isAdmin: true });
      expect(extra.status).toBe(400);
    });
  });

  describe('sign-in', () => {
    it('answers a working token for the right password, and a distinct one per sign-in', async () => {
      const { email } = await signUp(server.url);
      const a = await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD, timezone: 'UTC' });
      const b = await apiClient(server.url).post('/v1/auth/signin', { email: email.toUpperCase(), password: GOOD_PASSWORD });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.token).not.toBe(b.body.token);
      expect((await apiClient(server.url, a.body.token).get('/v1/user')).body.email).toBe(email);
    });

    it('answers the same 401 for a wrong password and an unknown address', async () => {
      const { email } = await signUp(server.url);
      const wrong = await apiClient(server.url).post('/v1/auth/signin', { email, password: 'wrong-password-1!' });
      const unknown = await apiClient(server.url).post('/v1/auth/signin', { email: uniqueEmail('nobody'), password: GOOD_PASSWORD });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ error: 'Invalid email or password' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('requires e-mail and password', async () => {
      const res = await apiClient(server.url).post('/v1/auth/signin', { email: uniqueEmail(), password: '' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Password is required');
      const missing = await apiClient(server.url).post('/v1/auth/signin', {});
      expect(missing.status).toBe(400);
      expect(missing.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['body.email', 'body.password']);
    });
  });

  describe('logout', () => {
    it('revokes only the token it was called with', async () => {
      const { email, api } = await signUp(server.url);
      const other = await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD });
      const res = await api.post('/v1/auth/logout');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await api.get('/v1/user')).status).toBe(401);
      expect((await api.post('/v1/auth/logout')).status).toBe(401);
      expect((await apiClient(server.url, other.body.token).get('/v1/user')).status).toBe(200);
    });

    it('works when the client sends its JSON content type without a body', async () => {
      const { api } = await signUp(server.url);
      const res = await api.call('POST', '/v1/auth/logout', undefined, { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      expect((await api.get('/v1/user')).status).toBe(401);
    });
  });

  describe('revocation reaches the very next request', () => {
    it('after repeated reads, a token deleted or an account locked by a direct write', async () => {
      const { api, token, profile } = await signUp(server.url);
      for (let i = 0; i < 3; i++) expect((await api.get('/v1/user')).status).toBe(200);
      const { db } = server.app.ctx;
      await db.updateTable('users').set({ is_locked: 1 }).where('id', '=', profile.id).execute();
      expect((await api.get('/v1/user/settings')).status).toBe(403);
      await db.updateTable('users').set({ is_locked: 0 }).where('id', '=', profile.id).execute();
      expect((await api.get('/v1/user/settings')).status).toBe(200);
      await db.deleteFrom('auth_tokens').where('token_hash', '=', sha256(token)).execute();
      expect((await api.get('/v1/user')).status).toBe(401);
    });

    it.skipIf(engine !== 'sqlite')('after repeated reads, a write by another connection to the database file', async () => {
      const { api, token } = await signUp(server.url);
      for (let i = 0; i < 3; i++) expect((await api.get('/v1/user')).status).toBe(200);
      const other = new SQLite(server.app.ctx.database.sqlite!.name);
      try {
        other.prepare('delete from auth_tokens where token_hash = ?').run(sha256(token));
      } finally {
        other.close();
      }
      expect((await api.get('/v1/user')).status).toBe(401);
    });

    it('sees profile changes at once', async () => {
      const { api } = await signUp(server.url);
      expect((await api.get('/v1/user')).body.settings.theme).toBe('default');
      await api.post('/v1/user/settings', { settings: { theme: 'light' } });
      expect((await api.get('/v1/user')).body.settings.theme).toBe('light');
    });
  });

  describe('change password', () => {
    it('changes the password, keeps this session and revokes every other one', async () => {
      const { email, api } = await signUp(server.url);
      const other = await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD });
      const res = await api.post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'new-Secret-42!' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Password changed successfully' });
      expect((await api.get('/v1/user')).status).toBe(200);
      expect((await apiClient(server.url, other.body.token).get('/v1/user')).status).toBe(401);
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD })).status).toBe(401);
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: 'new-Secret-42!' })).status).toBe(200);
    });

    it("needs the current password and a new one that passes sign-up's rules", async () => {
      const { api } = await signUp(server.url);
      const wrong = await api.post('/v1/auth/change-password', { currentPassword: 'not-my-password', newPassword: 'long-enough-42!' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ error: 'Current password is incorrect' });
      const short = await api.post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.error).toContain('Password must be at least 10 characters long');
      const missing = await api.post('/v1/auth/change-password', { newPassword: 'long-enough-42!' });
      expect(missing.status).toBe(400);
      // The password did not change.
      const { email } = (await api.get('/v1/user')).body;
      expect((await apiClient(server.url).post('/v1/auth/signin', { email, password: GOOD_PASSWORD })).status).toBe(200);
    });

    it('needs a signed-in user', async () => {
      const res = await apiClient(server.url).post('/v1/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'long-enough' });
      expect(res.status).toBe(401);
    });
  });
});
