import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharedSessionData } from '@spyglass/protocol';
import { apiClient, describeApi, signUp, startTestServer, type TestServer } from './helpers';
import { connectDevice, items } from './live-clients';
import { REPO_ROOT } from './support/server-process';

const webBuilt = fs.existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'));

describeApi('share host', () => {
  let server: TestServer;
  let shareUrl: string;
  beforeAll(async () => {
    server = await startTestServer();
    shareUrl = await server.app.shareServer.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  async function savedSession(sent = [items.network({ responseBody: 'r'.repeat(90 * 1024) }), items.log('hello'), items.screenshot('aW1hZ2U=')]) {
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey, { device: { name: 'Shared Phone', clientAppVersion: '1.2.3' } });
    await device.sendItems(sent);
    const res = await account.api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Public bug', requestIds: sent.map((i) => i.id) });
    expect(res.status).toBe(201);
    await device.close();
    return { ...account, device, sent, id: res.body.id as string };
  }

  const data = (id: string, headers: Record<string, string> = {}) => fetch(`${shareUrl}/shared-sessions/${id}/data.json`, { headers });

  it('answers data.json only while the session is shared, and 404 at once after unsharing', async () => {
    const { api, id, sent } = await savedSession();
    const hidden = await data(id);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()) as unknown).toEqual({ error: 'Session not found' });

    await api.put(`/v1/sessions/${id}`, { isShared: true });
    const open = await data(id);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toMatch(/^application\/json/);
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    const body = SharedSessionData.parse(await open.json());
    expect(body.session).toMatchObject({ id, name: 'Public bug', device: { name: 'Shared Phone', clientAppVersion: '1.2.3' }, metaData: { requests: 3 } });
    expect(body.session).not.toHaveProperty('isShared');
    // Full items, oldest first: bodies and screenshots included, so the page needs nothing else.
    expect(body.items.map((i) => i.id)).toEqual(sent.map((i) => i.id));
    expect(body.items.map((i) => i.num)).toEqual([1, 2, 3]);
    expect((body.items[0]!.details as { response: { body: string } }).response.body).toBe('r'.repeat(90 * 1024));
    expect((body.items[2]!.details as { image: string }).image).toBe('aW1hZ2U=');

    await api.put(`/v1/sessions/${id}`, { isShared: false });
    expect((await data(id)).status).toBe(404);
    expect((await data('no-such-session')).status).toBe(404);
    expect((await data('../../v1/user')).status).toBe(404);
  });

  it('is cacheable by ETag, and a rename changes the ETag', async () => {
    const { api, id } = await savedSession();
    await api.put(`/v1/sessions/${id}`, { isShared: true });
    const first = await data(id);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const cached = await data(id, { 'if-none-match': etag! });
    expect(cached.status).toBe(304);
    await api.put(`/v1/sessions/${id}`, { name: 'Renamed' });
    const renamed = await data(id, { 'if-none-match': etag! });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { session: { name: string } }).session.name).toBe('Renamed');
  });

  it('streams a large session in order, every item once', async () => {
    const sent = Array.from({ length: 1234 }, (_, i) => items.log(`line ${i}`, new Date(Date.UTC(2026, 4, 1, 0, 0, 0, i)).toISOString()));
    const account = await signUp(server.url);
    const device = await connectDevice(server.url, account.profile.apiKey);
    for (let i = 0; i < sent.length; i += 500) await device.sendItems(sent.slice(i, i + 500));
    const { id } = (await account.api.post('/v1/sessions', { deviceId: device.deviceId, name: 'Big', requestIds: sent.map((i) => i.id) })).body;
    await account.api.put(`/v1/sessions/${id}`, { isShared: true });
    const body = (await (await data(id)).json()) as { items: Array<{ id: string }> };
    expect(body.items).toHaveLength(1234);
    expect(body.items.map((i: { id: string }) => i.id)).toEqual(sent.map((i) => i.id));
    await device.close();
  });

  it('serves nothing but shared data: no API, no live channel, no token accepted', async () => {
    const { api, token, id } = await savedSession();
    await api.put(`/v1/sessions/${id}`, { isShared: true });
    const share = apiClient(shareUrl, token);
    for (const url of ['/v1/user', '/v1/sessions', `/v1/sessions/${id}`, '/v1/config', '/ws?type=viewer', '/healthz', '/openapi.json', '/v1/openapi.json', '/devices', '/sessions']) {
      const res = await share.get(url);
      expect(res.status, url).toBe(404);
      expect(JSON.stringify(res.body), url).not.toContain('apiKey');
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await share.call(method, `/shared-sessions/${id}/data.json`, {})).status, method).toBe(404);
    }
    // A token changes nothing: an unshared session stays hidden from its own owner here.
    await api.put(`/v1/sessions/${id}`, { isShared: false });
    expect((await share.get(`/shared-sessions/${id}/data.json`)).status).toBe(404);
  });

  it.skipIf(!webBuilt)('serves the read-only page and its assets', async () => {
    const page = await fetch(`${shareUrl}/shared-sessions/any-id`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    // The mark names the dashboard, where the page's way home leads.
    expect(html).toContain(`<meta name="spyglass-share-host" content="${server.app.ctx.config.publicUrl}">`);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const script = await fetch(shareUrl + asset!);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(0);
    expect((await fetch(`${shareUrl}/assets/../index.html`)).status).not.toBe(200);
    expect((await fetch(`${shareUrl}/`)).status).toBe(404);
  });
});
