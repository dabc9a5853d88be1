/**
 * 'Show on MDN' for headers (spec 001 §7). Offered only for the standard headers MDN documents:
 * a link to a page that does not exist would be worse than none.
 */
const MDN_HEADERS = [
  'Accept', 'Accept-CH', 'Accept-Encoding', 'Accept-Language', 'Accept-Patch', 'Accept-Post', 'Accept-Ranges',
  'Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers', 'Access-Control-Allow-Methods',
  'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Access-Control-Max-Age',
  'Access-Control-Request-Headers', 'Access-Control-Request-Method', 'Age', 'Allow', 'Alt-Svc', 'Authorization',
  'Cache-Control', 'Clear-Site-Data', 'Connection', 'Content-Disposition', 'Content-Encoding', 'Content-Language',
  'Content-Length', 'Content-Location', 'Content-Range', 'Content-Security-Policy', 'Content-Security-Policy-Report-Only',
  'Content-Type', 'Cookie', 'Cross-Origin-Embedder-Policy', 'Cross-Origin-Opener-Policy', 'Cross-Origin-Resource-Policy',
  'Date', 'ETag', 'Expect', 'Expires', 'Forwarded', 'From', 'Host', 'If-Match', 'If-Modified-Since', 'If-None-Match',
  'If-Range', 'If-Unmodified-Since', 'Keep-Alive', 'Last-Modified', 'Link', 'Location', 'Max-Forwards', 'Origin',
  'Permissions-Policy', 'Priority', 'Proxy-Authenticate', 'Proxy-Authorization', 'Range', 'Referer', 'Referrer-Policy',
  'Retry-After', 'Sec-Fetch-Dest', 'Sec-Fetch-Mode', 'Sec-Fetch-Site', 'Sec-Fetch-User', 'Server', 'Server-Timing',
  'Set-Cookie', 'Strict-Transport-Security', 'TE', 'Timing-Allow-Origin', 'Trailer', 'Transfer-Encoding', 'Upgrade',
  'Upgrade-Insecure-Requests', 'User-Agent', 'Vary', 'Via', 'WWW-Authenticate', 'X-Content-Type-Options',
  'X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Proto', 'X-Frame-Options',
];

const BY_LOWER = new Map(MDN_HEADERS.map((name) => [name.toLowerCase(), name]));

/** The MDN page of a header, or undefined for a header MDN does not document (custom `x-…` ones). */
export function mdnHeaderUrl(name: string): string | undefined {
  const canonical = BY_LOWER.get(name.trim().toLowerCase());
  return canonical && `https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/${canonical}`;
}
