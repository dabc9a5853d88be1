import http from 'node:http';

/** A GET made with node:http itself (what the SDK's node:http capture patches), answering the body as text. */
export function nodeHttpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}
