import fc from 'fast-check';
import * as harValidator from 'har-validator';
import { describe, expect, it } from 'vitest';
import { buildExport, EXPORT_FILES, exportPreview, runExport } from './export';
import { HAR_CREATOR, harEntry, harEntryJson, harExportEncoder, type HarLog, utf8Length } from './export-har';
import { generateItems, logItem, networkItem, screenshotItem } from './item-fixtures';
import type { NetworkItem } from './items';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function withTimings(item: NetworkItem, timings: NetworkItem['details']['timings']): NetworkItem {
  return { ...item, details: { ...item.details, timings } };
}

const items = [
  networkItem({
    num: 1, method: 'POST', url: 'https://api.example.com/v1/orders?coupon=SAVE%2010&x=1',
    requestHeaders: { 'Content-Type': 'application/json', Cookie: 'sid=abc; theme=dark' },
    requestBody: '{"item":"Käse 🧀","qty":2}',
    status: 201,
    responseHeaders: { 'Content-Type': 'application/json', 'Set-Cookie': 'sid=new; Path=/; HttpOnly; Secure; Expires=Wed, 21 Oct 2030 07:28:00 GMT\ntheme=light' },
    responseBody: '{"id":42}',
  }),
  logItem({ num: 2 }),
  networkItem({ num: 3, url: 'https://cdn.example.net/logo.png', responseHeaders: { 'Content-Type': 'image/png' }, responseBody: PNG_1PX, responseBodyEncoding: 'base64' }),
  screenshotItem({ num: 4 }),
  networkItem({ num: 5, url: 'https://api.example.com/straße/ü ber', status: null, error: 'The Internet connection appears to be offline.' }),
  withTimings(networkItem({ num: 6, method: 'PUT', requestBody: '', requestHeaders: {} }), { blocked: 1, dns: 2, connect: 10, ssl: 6, send: 1, wait: 30, receive: 4, total: 48 }),
  networkItem({ num: 7, method: 'PATCH', requestBody: 'AAEC/w==', requestBodyEncoding: 'base64', requestHeaders: { 'content-type': 'application/octet-stream' } }),
];

const exported = (list = items): HarLog => JSON.parse(buildExport(harExportEncoder(), list)) as HarLog;

describe('har export', () => {
  it('is valid HAR 1.2 by the HAR schema, with network items only', async () => {
    const har = exported();
    await expect(harValidator.har(har)).resolves.toBeTruthy();
    await expect(harValidator.har({ log: { ...har.log, entries: [{ ...har.log.entries[0], timings: {} }] } })).rejects.toThrow();
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'Spyglass', version: '1.0.0' });
    expect(HAR_CREATOR.version).toBe('1.0.0');
    expect(har.log.entries.map((e) => e._id)).toEqual(['net-1', 'net-3', 'net-5', 'net-6', 'net-7']);
    expect(EXPORT_FILES.har.fileName).toBe('spyglass-requests.har');
  });

  it('round-trips method, url, headers, query, body and status of the captured requests', () => {
    const [order, image, failed, timed, binary] = exported().log.entries;
    expect(order!.request.method).toBe('POST');
    expect(order!.request.url).toBe('https://api.example.com/v1/orders?coupon=SAVE%2010&x=1');
    expect(order!.request.queryString).toEqual([{ name: 'coupon', value: 'SAVE 10' }, { name: 'x', value: '1' }]);
    expect(order!.request.headers).toEqual([{ name: 'Content-Type', value: 'application/json' }, { name: 'Cookie', value: 'sid=abc; theme=dark' }]);
    expect(order!.request.cookies).toEqual([{ name: 'sid', value: 'abc' }, { name: 'theme', value: 'dark' }]);
    expect(order!.request.postData).toEqual({ mimeType: 'application/json', text: '{"item":"Käse 🧀","qty":2}' });
    expect(order!.request.bodySize).toBe(utf8Length('{"item":"Käse 🧀","qty":2}'));
    expect(order!.request.bodySize).toBe(new TextEncoder().encode('{"item":"Käse 🧀","qty":2}').length);
    expect(order!.response.status).toBe(201);
    expect(order!.response.statusText).toBe('Created');
    expect(order!.response.content).toEqual({ size: 9, mimeType: 'application/json', text: '{"id":42}' });
    expect(order!.response.cookies).toEqual([
      { name: 'sid', value: 'new', path: '/', httpOnly: true, secure: true, expires: '2030-10-21T07:28:00.000Z' },
      { name: 'theme', value: 'light' },
    ]);

    expect(image!.response.content.encoding).toBe('base64');
    expect(image!.response.content.text).toBe(PNG_1PX);
    expect(image!.response.content.size).toBe(atob(PNG_1PX).length);

    expect(failed!.response.status).toBe(0);
    expect(failed!.response._error).toBe('The Internet connection appears to be offline.');
    expect(failed!.request.url).toBe('https://api.example.com/stra%C3%9Fe/%C3%BC%20ber');

    expect(timed!.request.postData).toEqual({ mimeType: 'text/plain', text: '' });
    expect(binary!.request.postData).toEqual({ mimeType: 'application/octet-stream', text: 'AAEC/w==', _encoding: 'base64' });
    expect(binary!.request.bodySize).toBe(4);
  });

  it('fills all seven timings and sums them into time', () => {
    const timed = exported().log.entries[3]!;
    expect(timed.timings).toEqual({ blocked: 1, dns: 2, connect: 10, send: 1, wait: 30, receive: 4, ssl: 6 });
    expect(timed.time).toBe(48);
    const plain = harEntry(networkItem({ duration: 250 }));
    expect(plain.timings).toEqual({ blocked: -1, dns: -1, connect: -1, send: 0, wait: 250, receive: 0, ssl: -1 });
    expect(plain.time).toBe(250);
    const fromMetrics = networkItem({ duration: null });
    fromMetrics.details.request.requestMetrics = {
      domainLookupStartDate: '2026-11-23T10:00:00.000Z', domainLookupEndDate: '2026-11-23T10:00:00.005Z',
      requestStartDate: '2026-11-23T10:00:00.010Z', requestEndDate: '2026-11-23T10:00:00.012Z',
      responseStartDate: '2026-11-23T10:00:00.050Z', responseEndDate: '2026-11-23T10:00:00.060Z',
    };
    expect(harEntry(fromMetrics).timings).toEqual({ blocked: -1, dns: 5, connect: -1, send: 2, wait: 38, receive: 10, ssl: -1 });
    expect(harEntry(fromMetrics).time).toBe(55);
  });

  it('starts each entry at the request start in UTC, else at the capture time', () => {
    const item = networkItem({ createdAt: '2026-11-23T10:00:01.500Z' });
    expect(harEntry(item).startedDateTime).toBe('2026-11-23T10:00:01.500Z');
    item.details.request.startedAt = '2026-11-23T10:00:00.250Z';
    expect(harEntry(item).startedDateTime).toBe('2026-11-23T10:00:00.250Z');
    item.details.request.startedAt = '2026-11-23T11:00:00.25+01:00';
    expect(harEntry(item).startedDateTime).toBe('2026-11-23T10:00:00.250Z');
    item.details.request.startedAt = 'not a date';
    expect(harEntry(item).startedDateTime).toBe('2026-11-23T10:00:01.500Z');
  });

  it('stays valid for arbitrary captured values', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 30 });
    await fc.assert(fc.asyncProperty(
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        path: text,
        headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), text, { maxKeys: 5 }),
        body: fc.option(text),
        status: fc.option(fc.integer({ min: 100, max: 599 })),
      }),
      async ({ method, path, headers, body, status }) => {
        const item = networkItem({ method, url: `https://x.test/${path}`, requestHeaders: headers, requestBody: body, status, responseBody: body });
        const har = exported([item]);
        await expect(harValidator.har(har)).resolves.toBeTruthy();
        expect(har.log.entries[0]!.request.postData?.text ?? null).toBe(body);
      },
    ), { numRuns: 100 });
  });

  it('writes each entry exactly as JSON.stringify of harEntry', () => {
    const network = (list: readonly unknown[]) => list.filter((i): i is NetworkItem => (i as NetworkItem).type === 'network');
    const mocked = { ...networkItem({ num: 8 }), isMocked: true };
    const metrics = networkItem({ num: 9, duration: null, status: 304 });
    metrics.details.request.requestMetrics = { requestStartDate: '2026-11-23T10:00:00.010Z', requestEndDate: '2026-11-23T10:00:00.012Z' };
    metrics.details.request.query = { q: 'a "b"', empty: '' };
    metrics.details.request.httpVersion = '2';
    for (const item of [...network(items), ...network(generateItems(300)), mocked, metrics, withTimings(networkItem({ num: 10 }), { total: Number.NaN, wait: 0.1, receive: 0.2 })]) {
      expect(harEntryJson(item)).toBe(JSON.stringify(harEntry(item)));
    }
    const text = fc.string({ unit: 'grapheme', maxLength: 30 });
    fc.assert(fc.property(
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        url: fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), text.map((t) => `https://x.test/${t}`)),
        requestHeaders: fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), text, { maxKeys: 5 }),
        responseHeaders: fc.dictionary(fc.constantFrom('Set-Cookie', 'Location', 'content-type', 'X-A'), text, { maxKeys: 4 }),
        requestBody: fc.option(text),
        requestBodyEncoding: fc.constantFrom('utf8' as const, 'base64' as const),
        responseBody: fc.option(text),
        status: fc.option(fc.integer({ min: 100, max: 599 })),
        duration: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
        error: fc.option(text),
      }),
      (f) => {
        const item = networkItem({ ...f, error: f.error ?? undefined });
        expect(harEntryJson(item)).toBe(JSON.stringify(harEntry(item)));
      },
    ), { numRuns: 200 });
  });

  it('reads the query string as URLSearchParams does', () => {
    const search = fc.array(fc.constantFrom('a', 'b', '=', '&', '%', '+', '2', '0', 'F', 'é', ' ', '?', '#'), { maxLength: 20 }).map((c) => c.join(''));
    fc.assert(fc.property(search, (s) => {
      const url = `https://x.test/p?${s}`;
      const expected = [...new URLSearchParams(s.split('#')[0])].map(([name, value]) => ({ name, value }));
      expect(harEntry(networkItem({ url })).request.queryString).toEqual(expected);
    }), { numRuns: 500 });
    expect(harEntry(networkItem({ url: 'https://x.test/?a=1&&b&=c&d=e=f#g=h' })).request.queryString)
      .toEqual([{ name: 'a', value: '1' }, { name: 'b', value: '' }, { name: '', value: 'c' }, { name: 'd', value: 'e=f' }]);
  });

  it('keeps a 5 MB body whole', () => {
    const body = 'x'.repeat(5 * 1024 * 1024);
    const entry = exported([networkItem({ responseBody: body })]).log.entries[0]!;
    expect(entry.response.content.text).toHaveLength(body.length);
    expect(entry.response.content.size).toBe(body.length);
  });

  it('is the same file in slices as at once and previews 10 network items', async () => {
    const list = generateItems(777);
    const parts: string[] = [];
    await runExport(harExportEncoder(), list, { write: (p) => parts.push(p), pause: async () => {} });
    expect(parts.join('')).toBe(buildExport(harExportEncoder(), list));
    const all = JSON.parse(parts.join('')) as HarLog;
    expect(all.log.entries).toHaveLength(list.filter((i) => i.type === 'network').length);
    await expect(harValidator.har(all)).resolves.toBeTruthy();
    expect((JSON.parse(exportPreview('har', list)) as HarLog).log.entries).toHaveLength(10);
  });
});
