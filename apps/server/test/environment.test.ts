import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, engine, GOOD_PASSWORD, uniqueEmail } from './helpers';
import { linkIn, startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';
import { SERVER_MAIN, spawnNodeProcess, waitForOk, type NodeProcess } from './support/server-process';

// The configuration comes from the environment of the real process, as the README documents it.
// One SQLite process is enough to prove the wiring; the engines are compared by the other suites.
describe.skipIf(engine !== 'sqlite')('the server process configured by its environment [sqlite]', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-env-'));
  let smtp: SmtpReceiver;
  let server: NodeProcess;
  let url: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = spawnNodeProcess(SERVER_MAIN, {
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '',
      SMTP_URL: smtp.url, MAIL_FROM: 'Spyglass Test <robot@spyglass.test>', PUBLIC_URL: 'https://spyglass.example.test/',
      GOOGLE_CLIENT_ID: 'env-client.apps.googleusercontent.com', BOOK_DEMO_URL: 'https://cal.example.test/demo',
      DEMO_MODE: '1', NODE_ENV: 'development', TRUST_PROXY: '',
    });
    url = await server.url;
    await waitForOk(`${url}/healthz`);
  }, 90_000);
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await smtp?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes GOOGLE_CLIENT_ID, BOOK_DEMO_URL and DEMO_MODE in GET /v1/config', async () => {
    const res = await apiClient(url).get('/v1/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      googleClientId: 'env-client.apps.googleusercontent.com', bookDemoUrl: 'https://cal.example.test/demo', demoMode: true,
    });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('mails through SMTP_URL from MAIL_FROM with links on PUBLIC_URL, and gives sg_dev_ keys under NODE_ENV=development', async () => {
    const email = uniqueEmail('env');
    const res = await apiClient(url).post('/v1/auth/signup', { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.profile.apiKey).toMatch(/^sg_dev_[A-Za-z0-9]{30}$/);
    const mail = await smtp.waitForMail(email);
    expect(mail.from).toBe('robot@spyglass.test');
    const { url: link, token } = linkIn(mail, '/verify-email');
    expect(link.origin).toBe('https://spyglass.example.test');
    expect((await apiClient(url).get(`/v1/auth/verify-email?token=${token}`)).body.profile.emailVerified).toBe(true);
  });

  it('creates demo users with DEMO_MODE=1', async () => {
    const res = await apiClient(url).post('/v1/user/demo', {});
    expect(res.status).toBe(200);
    expect((await apiClient(url).post('/v1/auth/signin', res.body)).status).toBe(200);
  });
});
