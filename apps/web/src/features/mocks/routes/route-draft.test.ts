import { compileUrlPattern, parseRequestUrl, urlMatches } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { draftOf, newRoute, sameDraft, sampleUrlFor } from './route-draft';

describe('route drafts', () => {
  it('starts a new route disabled, unsaved and empty', () => {
    const route = newRoute('dev-1', 'new-1', new Date('2026-01-02T03:04:05.000Z'));
    expect(route).toMatchObject({ id: 'new-1', deviceId: 'dev-1', isEnabled: false, isUnsaved: true, createdAt: '2026-01-02T03:04:05.000Z' });
    expect(route.mockData).toMatchObject({ mode: 'default', responseMode: 'static', method: 'GET', mockedUrl: '', statusCode: 200 });
  });

  it('compares drafts by what is sent, not by the console log', () => {
    const route = newRoute('d', 'n');
    const a = draftOf(route);
    const b = { ...a, mockData: { ...a.mockData, consoleLog: [{ time: '2026-01-01T00:00:00.000Z', message: 'x' }] } };
    expect(sameDraft(a, b)).toBe(true);
    expect(sameDraft(a, { ...a, tags: ['x'] })).toBe(false);
    expect(sameDraft(a, { ...a, mockData: { ...a.mockData, body: '{}' } })).toBe(false);
  });

  it('gives a sample URL that its pattern matches', () => {
    for (const pattern of ['https://api.example.com/todos', 'https://api.example.com/todos/*', '/users/*/orders?page=*', '*.example.com/v1/*', 'api.example.com/search?q=*', '*://api.example.com/x', 'https://a.example/x\\?page=2']) {
      const compiled = compileUrlPattern(pattern);
      if (!compiled.ok) throw new Error(compiled.error);
      const url = parseRequestUrl(sampleUrlFor(pattern));
      expect(url, pattern).toBeDefined();
      expect(urlMatches(compiled.pattern, url!), `${pattern} → ${sampleUrlFor(pattern)}`).toBe(true);
    }
  });
});
