import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileUrlPattern, mapRemoteUrl, parseRequestUrl, urlMatches } from './url-pattern';

function match(pattern: string, url: string): boolean {
  const compiled = compileUrlPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  const parsed = parseRequestUrl(url);
  if (!parsed) throw new Error(`bad url ${url}`);
  return urlMatches(compiled.pattern, parsed);
}

describe('URL patterns', () => {
  it('matches an exact URL, ignoring one trailing slash and a default port', () => {
    expect(match('https://api.example.com/users', 'https://api.example.com/users')).toBe(true);
    expect(match('https://api.example.com/users/', 'https://api.example.com/users')).toBe(true);
    expect(match('https://api.example.com/users', 'https://API.example.com:443/users/')).toBe(true);
    expect(match('https://api.example.com/users', 'https://api.example.com/users/1')).toBe(false);
    expect(match('https://api.example.com/users', 'http://api.example.com/users')).toBe(false);
  });

  it("lets '*' stand for any text in the path, spanning '/'", () => {
    expect(match('https://api.example.com/users/*', 'https://api.example.com/users/42')).toBe(true);
    expect(match('https://api.example.com/users/*', 'https://api.example.com/users/42/orders')).toBe(true);
    expect(match('https://api.example.com/users/*/orders', 'https://api.example.com/users/42/orders')).toBe(true);
    expect(match('https://api.example.com/users/*/orders', 'https://api.example.com/users/42/invoices')).toBe(false);
    expect(match('https://api.example.com/users/*', 'https://api.example.com/teams/1')).toBe(false);
  });

  it("lets '*' stand for any text in a query value; other parameters do not matter", () => {
    expect(match('https://api.example.com/list?page=*', 'https://api.example.com/list?page=3&sort=asc')).toBe(true);
    expect(match('https://api.example.com/list?page=*', 'https://api.example.com/list?sort=asc')).toBe(false);
    expect(match('https://api.example.com/list?page=1', 'https://api.example.com/list?page=2')).toBe(false);
    expect(match('https://api.example.com/list?q=a*z', 'https://api.example.com/list?q=a%20b%20z')).toBe(true);
    expect(match('https://api.example.com/list', 'https://api.example.com/list?anything=1')).toBe(true);
  });

  it("reads '\\?' as the query separator (the dashboard escapes it)", () => {
    expect(match('https://api.example.com/list\\?page=2', 'https://api.example.com/list?page=2')).toBe(true);
  });

  it('matches any host for a path pattern, any path for a host pattern, and host wildcards', () => {
    expect(match('/users/*', 'http://localhost:3000/users/1')).toBe(true);
    expect(match('api.example.com', 'https://api.example.com/a/b?c=d')).toBe(true);
    expect(match('*.example.com/v1/*', 'https://eu.example.com/v1/x')).toBe(true);
    expect(match('*.example.com/v1/*', 'https://example.org/v1/x')).toBe(false);
    expect(match('localhost:3000/api', 'http://localhost:3000/api')).toBe(true);
    expect(match('localhost:3000/api', 'http://localhost:4000/api')).toBe(false);
    expect(match('localhost/api', 'http://localhost:4000/api')).toBe(true);
    expect(match('*', 'https://anything.example/x?y=1')).toBe(true);
  });

  it('refuses invalid patterns with a reason', () => {
    for (const bad of ['', '   ', 'https://api.example.com/a b', 'ftp://x/y', 'https:///path', 'https://exa mple.com', 'https://x/a?=1',
      'https://x/a?b=1?c=2', 'https://x/%zz', 'https://x:port/a', 'https://x/a\\b', 'https://x/a?k*=1']) {
      const compiled = compileUrlPattern(bad);
      expect(compiled.ok, bad).toBe(false);
      if (!compiled.ok) expect(compiled.error).toMatch(/^Invalid URL pattern/);
    }
  });

  it('counts literal characters as specificity', () => {
    const spec = (p: string) => {
      const c = compileUrlPattern(p);
      return c.ok ? c.pattern.specificity : -1;
    };
    expect(spec('/api/users/42')).toBeGreaterThan(spec('/api/users/*'));
    expect(spec('/api/users/*')).toBeGreaterThan(spec('/api/*'));
    expect(spec('https://api.example.com/api/*')).toBeGreaterThan(spec('/api/*'));
  });

  it('a pattern without wildcards matches exactly the URL it was made from (property)', () => {
    fc.assert(fc.property(
      fc.webUrl({ withQueryParameters: true, withFragments: false }),
      (raw) => {
        const url = parseRequestUrl(raw);
        fc.pre(!!url && !raw.includes('*') && !raw.includes('\\') && !/%(?![0-9a-fA-F]{2})/.test(raw));
        const compiled = compileUrlPattern(url!.href);
        fc.pre(compiled.ok);
        return compiled.ok && urlMatches(compiled.pattern, url!);
      },
    ), { numRuns: 300 });
  });

  it('maps remote: host replaced, path kept or rebased after a trailing *, query kept and extended', () => {
    const map = (pattern: string, url: string, target: string) => {
      const c = compileUrlPattern(pattern);
      if (!c.ok) throw new Error(c.error);
      return mapRemoteUrl(c.pattern, parseRequestUrl(url)!, target);
    };
    expect(map('https://api.example.com/*', 'https://api.example.com/users/1?x=1', 'http://localhost:3000'))
      .toBe('http://localhost:3000/users/1?x=1');
    expect(map('https://api.example.com/v1/*', 'https://api.example.com/v1/users?x=1', 'https://api.example.com/v2'))
      .toBe('https://api.example.com/v2/users?x=1');
    expect(map('https://api.example.com/health', 'https://api.example.com/health', 'http://127.0.0.1:9/status?debug=1'))
      .toBe('http://127.0.0.1:9/status?debug=1');
    expect(map('https://api.example.com/*', 'https://api.example.com/a', 'not a url')).toBeUndefined();
  });
});
