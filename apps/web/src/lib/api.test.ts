import { describe, expect, it } from 'vitest';
import { buildApiUrl } from './api';

describe('buildApiUrl (spec 000 §7.1 query string)', () => {
  it('puts lbg first, then the call parameters, then test-mode from the page address', () => {
    const url = buildApiUrl('/billing/usage', { days: 30 }, 'eu-2', '?test-mode=1&email=x');
    expect(url).toBe('/v1/billing/usage?lbg=eu-2&days=30&test-mode=1');
  });

  it('leaves out what is absent', () => {
    expect(buildApiUrl('/user', {}, null, '')).toBe('/v1/user');
    expect(buildApiUrl('/user', { a: undefined, b: null }, undefined, '?x=1')).toBe('/v1/user');
  });

  it('keeps a bare test-mode flag', () => {
    expect(buildApiUrl('/user', {}, null, '?test-mode')).toBe('/v1/user?test-mode=true');
  });

  it('encodes parameter values', () => {
    expect(buildApiUrl('/auth/verify-email', { token: 'a b&c' }, null, '')).toBe('/v1/auth/verify-email?token=a+b%26c');
  });
});
