/**
 * The Query tab: the parameters of the request URL, in order and with duplicates kept. `null`
 * when the URL does not parse (spec 001 §5: an invalid URL shows No data available).
 */
export function queryParameters(url: string, captured?: Record<string, string>): Array<[string, string]> | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const fromUrl = [...parsed.searchParams];
  // Some SDKs send the parsed query beside the URL; the URL's own order and duplicates win.
  if (fromUrl.length === 0 && captured) return Object.entries(captured);
  return fromUrl;
}
