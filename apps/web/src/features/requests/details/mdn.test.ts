import { describe, expect, it } from 'vitest';
import { mdnHeaderUrl } from './mdn';

describe('mdnHeaderUrl', () => {
  it('links standard headers to their MDN page with the canonical spelling', () => {
    expect(mdnHeaderUrl('content-type')).toBe('https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Content-Type');
    expect(mdnHeaderUrl('ETAG')).toBe('https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/ETag');
    expect(mdnHeaderUrl(' www-authenticate ')).toBe('https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/WWW-Authenticate');
  });

  it('offers no link for custom headers', () => {
    expect(mdnHeaderUrl('x-request-id')).toBeUndefined();
    expect(mdnHeaderUrl('Spyglass-Intercepted')).toBeUndefined();
    expect(mdnHeaderUrl('<img src=x onerror=alert(1)>')).toBeUndefined();
  });
});
