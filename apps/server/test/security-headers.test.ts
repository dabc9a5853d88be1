import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, describeApi, startTestServer, type TestServer } from './helpers';

/** GET with the path sent exactly as written (fetch and URL would resolve `..` first). */
function rawGet(base: string, rawPath: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string | null | undefined): Map<string, string[]> {
  return new Map((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...values] = d.split(/\s+/);
    return [name!, values];
  }));
}

// Issue 12, defect 8: neither host sent a security header (the signed-in dashboard loaded inside
// a foreign frame), and the dashboard host answered 403 for a file outside the web root that
// exists and 404 for one that does not.
describeApi('security headers on both hosts, and no file oracle outside the web root', () => {
  let server: TestServer;
  let shareUrl: string;
  // A web root of our own, so that the test knows every file in it and runs without a web build.
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-webroot-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><html><head><title>Spyglass</title></head><body><div id="root"></div></body></html>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webRoot, 'robots.txt'), 'User-agent: *');
    server = await startTestServer({ webRoot, config: { shareUrl: 'https://share.spyglass.test' } });
    shareUrl = await server.app.shareServer.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const expectStrictHeaders = (headers: Headers | http.IncomingHttpHeaders, where: string) => {
    const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined));
    const csp = directives(get('content-security-policy'));
    expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
    expect(csp.get('default-src'), where).toEqual(["'self'"]);
    expect(csp.get('object-src'), where).toEqual(["'none'"]);
    expect(csp.get('base-uri'), where).toEqual(["'none'"]);
    // Scripts only from our own files: no inline script, no eval.
    expect(csp.get('script-src')?.[0], where).toBe("'self'");
    expect(csp.get('script-src')?.join(' '), where).not.toMatch(/unsafe|\*|data:/);
    expect(get('x-content-type-options'), where).toBe('nosniff');
    expect(get('x-frame-options'), where).toBe('DENY');
    expect(get('referrer-policy'), where).toMatch(/^(no-referrer|strict-origin-when-cross-origin|same-origin)$/);
  };

  it('sends a strict policy with the dashboard, its files, the API and errors', async () => {
    for (const url of ['/', '/devices/some-device', '/assets/index-abc.js', '/v1/config', '/v1/user', '/healthz', '/missing.js']) {
      const res = await fetch(server.url + url);
      expectStrictHeaders(res.headers, url);
    }
    const page = directives((await fetch(`${server.url}/`)).headers.get('content-security-policy'));
    // The dashboard's own /shared-sessions route reads data.json from the share host, and its live channel is a websocket.
    expect(page.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://share.spyglass.test']));
    // Screenshots and captured media are shown from data: and blob: URLs.
    expect(page.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
  });

  it('sends the same strict policy from the share host', async () => {
    for (const url of ['/shared-sessions/abc', '/shared-sessions/abc/data.json', '/assets/index-abc.js', '/anything']) {
      const res = await fetch(shareUrl + url);
      expectStrictHeaders(res.headers, `share ${url}`);
    }
    expect(directives((await fetch(`${shareUrl}/shared-sessions/abc`)).headers.get('content-security-policy')).get('connect-src')).toEqual(["'self'"]);
  });

  it('answers a path outside the web root exactly like a missing file', async () => {
    const missing = await rawGet(server.url, '/no-such-file.conf');
    expect(missing.status).toBe(404);
    // Deep enough to reach / from any web root; ld.so.conf exists on every Debian.
    const up = '/..'.repeat(12);
    for (const probe of [
      `${up}/etc/ld.so.conf`, `${up}/etc/no-such-file.conf`, `${up.replaceAll('..', '%2e%2e')}/etc/ld.so.conf`,
      `/assets${up.replaceAll('/', '%2f')}%2fetc%2fld.so.conf`, '/assets/../../package.json', '/..%5c..%5cpackage.json',
    ]) {
      const res = await rawGet(server.url, probe);
      expect({ probe, status: res.status }).toEqual({ probe, status: 404 });
      expectStrictHeaders(res.headers, probe);
    }
    // Files of the web root are served; index.html only as the page.
    expect((await rawGet(server.url, '/robots.txt')).body).toBe('User-agent: *');
    expect((await rawGet(server.url, '/assets/index-abc.js')).status).toBe(200);
    expect((await rawGet(server.url, '/assets/../robots.txt')).status).toBe(404);
  });

  it('keeps API answers JSON and the error shape', async () => {
    const res = await apiClient(server.url).get('/v1/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });
});
