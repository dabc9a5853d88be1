import { expect, it } from 'vitest';
import { apiClient, describeApi, useTestServer } from './helpers';

describeApi('health and conventions', () => {
  const server = useTestServer();

  it('answers /healthz once migrations ran', async () => {
    const res = await apiClient(server.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('accepts lbg and test-mode on every path', async () => {
    const res = await apiClient(server.url).get('/healthz?lbg=a&test-mode=1');
    expect(res.status).toBe(200);
  });

  it('serves the OpenAPI document', async () => {
    const res = await apiClient(server.url).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toContain('/v1/auth/signup');
  });
});
