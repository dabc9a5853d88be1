import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from './helpers';

/** What `vite build` leaves: an index.html naming its hashed script, and the script. */
function writeBuild(root: string, hash: string): void {
  fs.rmSync(path.join(root, 'assets'), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'assets', `index-${hash}.js`), `console.log('${hash}')`);
  fs.writeFileSync(path.join(root, 'index.html'), `<!doctype html><html><head><script type="module" src="/assets/index-${hash}.js"></script></head><body></body></html>`);
}

const scriptOf = (html: string) => /src="([^"]+)"/.exec(html)?.[1];

// A web client rebuilt under a running server gave a blank page: the server had listed the
// files at start, so the new index.html was served but its new hashed script was a 404.
describeApi('the web root is read from disk at each request', () => {
  let server: TestServer;
  let shareUrl: string;
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-webroot-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-outside-'));

  beforeAll(async () => {
    writeBuild(webRoot, 'aaa111');
    server = await startTestServer({ webRoot });
    shareUrl = await server.app.shareServer.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('serves a build made after the start, on both hosts, with the page revalidated and hashed assets kept for good', async () => {
    expect(scriptOf(await (await fetch(`${server.url}/devices`)).text())).toBe('/assets/index-aaa111.js');

    writeBuild(webRoot, 'bbb222');
    for (const [base, pagePath] of [[server.url, '/devices'], [server.url, '/'], [shareUrl, '/shared-sessions/abc']] as const) {
      const page = await fetch(base + pagePath);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const script = scriptOf(await page.text());
      expect(script).toBe('/assets/index-bbb222.js');
      const asset = await fetch(base + script!);
      expect({ base, status: asset.status }).toEqual({ base, status: 200 });
      expect(await asset.text()).toBe("console.log('bbb222')");
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // The previous build's script is gone from disk, so from the server too.
      expect((await fetch(`${base}/assets/index-aaa111.js`)).status).toBe(404);
    }
  });

  it('revalidates files outside assets/, and answers 503 while index.html is missing mid-build', async () => {
    fs.writeFileSync(path.join(webRoot, 'robots.txt'), 'User-agent: *');
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(await robots.text()).toBe('User-agent: *');
    expect(robots.headers.get('cache-control')).toBe('public, max-age=0');
    expect(robots.headers.get('etag')).toBeTruthy();

    fs.rmSync(path.join(webRoot, 'index.html'));
    const building = await fetch(`${server.url}/devices`);
    expect(building.status).toBe(503);
    expect(await building.json()).toEqual({ error: 'The web client is being built: try again in a moment' });
    writeBuild(webRoot, 'ccc333');
    expect(scriptOf(await (await fetch(`${server.url}/devices`)).text())).toBe('/assets/index-ccc333.js');
  });

  it('never serves index.html as a file, nor a file a symbolic link in the root leads outside to', async () => {
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(webRoot, 'secret.txt'));
    fs.symlinkSync(outside, path.join(webRoot, 'linked'));
    for (const probe of ['/secret.txt', '/linked/secret.txt', '/index.html', '/assets/%2e%2e/index.html', '/assets//index-ccc333.js']) {
      const res = await fetch(server.url + probe);
      expect({ probe, status: res.status }).toEqual({ probe, status: 404 });
    }
    // A link that stays inside the root is an ordinary file.
    fs.symlinkSync(path.join(webRoot, 'assets', 'index-ccc333.js'), path.join(webRoot, 'alias.js'));
    expect(await (await fetch(`${server.url}/alias.js`)).text()).toBe("console.log('ccc333')");
  });
});
