import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlFromItem, shellQuote, toCurl, type CurlRequest } from './curl';
import { networkItem } from './item-fixtures';

const noNul = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => s.replace(/\0/g, '').replace(/[\uD800-\uDFFF]/g, ''));

describe('shellQuote', () => {
  it('gives back every string exactly through a real shell', () => {
    fc.assert(fc.property(noNul, (value) => {
      const out = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(value)}`]);
      expect(out.toString('utf8')).toBe(value);
    }), { numRuns: 150 });
  });

  it('survives the nastiest characters in bash too', () => {
    const value = `it's $HOME \`id\` $(id) "q" \\ \n\t !! ; | & * ? [a] {b,c} ~ # 👋`;
    expect(execFileSync('bash', ['-c', `printf '%s' ${shellQuote(value)}`]).toString()).toBe(value);
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe('toCurl', () => {
  it('writes method, URL, headers and the body of a POST', () => {
    expect(toCurl({ method: 'post', url: 'https://api.example.com/v1/users', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Zoë"}' }))
      .toBe("curl 'https://api.example.com/v1/users' \\\n  -X 'POST' \\\n  -H 'Content-Type: application/json' \\\n  --data-raw '{\"name\":\"Zoë\"}'");
  });

  it('leaves the body out of other methods (spec 001 §7)', () => {
    const cmd = toCurl({ method: 'DELETE', url: 'https://x.test/1', body: 'ignored' });
    expect(cmd).not.toContain('ignored');
    expect(cmd).not.toContain('--data');
  });

  it('guards against curl options and globbing in URLs and HEAD waiting for a body', () => {
    expect(toCurl({ method: 'GET', url: 'https://x.test/?a[0]={1}' })).toContain('--globoff');
    expect(toCurl({ method: 'GET', url: 'https://x.test/a/../b' })).toContain('--path-as-is');
    expect(toCurl({ method: 'HEAD', url: 'https://x.test/' })).toContain('--head');
    expect(toCurl({ method: 'GET', url: '-K/etc/passwd' })).toContain("--url '-K/etc/passwd'");
  });

  it('takes a network item', () => {
    const cmd = curlFromItem(networkItem({ method: 'PUT', url: 'https://x.test/a', requestHeaders: { 'X-A': '1' }, requestBody: 'b' }));
    expect(cmd).toBe("curl 'https://x.test/a' \\\n  -X 'PUT' \\\n  -H 'X-A: 1' \\\n  -H 'Content-Type:' \\\n  --data-raw 'b'");
  });
});

interface Received { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('the command run by real curl reproduces the request', () => {
  let server: http.Server;
  let base = '';
  let dir = '';
  const received: Received[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-curl-'));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const run = (request: CurlRequest): Promise<Received> => new Promise((resolve, reject) => {
    const before = received.length;
    // Run as a script file, as when pasted into a terminal: `sh -c` would itself hit the argument limit.
    const script = path.join(dir, `cmd-${before}.sh`);
    fs.writeFileSync(script, `${toCurl(request)} --silent --show-error --output /dev/null\n`);
    execFile('sh', [script], (err) => {
      if (err) reject(err);
      else resolve(received[before]!);
    });
  });

  it('JSON with quotes, newlines, shell syntax and unicode', async () => {
    const body = `{"text":"it's \\"quoted\\"\\n$HOME \`id\` 👋","tab":"\t"}\n`;
    const got = await run({
      method: 'POST',
      url: `${base}/v1/orders?q=a%20b&list[]=1`,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Quote': `it's "fine" $PATH`, Authorization: 'Bearer abc.def', 'X-Empty': '' },
      body,
    });
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/orders?q=a%20b&list[]=1');
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(got.headers['x-quote']).toBe(`it's "fine" $PATH`);
    expect(got.headers.authorization).toBe('Bearer abc.def');
    expect(got.headers['x-empty']).toBe('');
    expect(got.body.toString('utf8')).toBe(body);
  });

  it('binary bodies byte for byte, NUL included', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const got = await run({ method: 'PUT', url: `${base}/upload`, headers: { 'Content-Type': 'application/octet-stream' }, body: bytes.toString('base64'), bodyEncoding: 'base64' });
    expect(got.method).toBe('PUT');
    expect(got.body.equals(bytes)).toBe(true);
    const text = await run({ method: 'PATCH', url: `${base}/t`, headers: { 'Content-Type': 'text/plain' }, body: 'a\0b' });
    expect(text.body.toString('utf8')).toBe('a\0b');
  });

  it('a body larger than an argument may be', async () => {
    const body = `${'ü'.repeat(150_000)}'end'`;
    const got = await run({ method: 'POST', url: `${base}/big`, headers: { 'Content-Type': 'text/plain' }, body });
    expect(got.body.toString('utf8')).toBe(body);
  });

  it('without a captured Content-Type, none is invented; other methods send no body', async () => {
    const post = await run({ method: 'POST', url: `${base}/form`, headers: {}, body: 'a=1&b=2' });
    expect(post.headers['content-type']).toBeUndefined();
    expect(post.body.toString()).toBe('a=1&b=2');
    const del = await run({ method: 'DELETE', url: `${base}/items/1`, headers: { 'X-Trace': '1' }, body: 'nope' });
    expect(del.method).toBe('DELETE');
    expect(del.headers['x-trace']).toBe('1');
    expect(del.body.length).toBe(0);
    const head = await run({ method: 'HEAD', url: `${base}/h` });
    expect(head.method).toBe('HEAD');
  });

  it('arbitrary header values and bodies', async () => {
    const printable = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\0\r\n]/g, '').trim());
    await fc.assert(fc.asyncProperty(printable, noNul, async (header, body) => {
      const got = await run({ method: 'POST', url: `${base}/p`, headers: { 'X-Value': header, 'Content-Type': 'text/plain' }, body });
      expect(Buffer.from(String(got.headers['x-value'] ?? ''), 'latin1').toString('utf8')).toBe(header);
      expect(got.body.toString('utf8')).toBe(body);
    }), { numRuns: 25 });
  });
});
