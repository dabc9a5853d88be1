import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { buildExport, EXPORT_FILES, exportPreview } from './export';
import { CSV_EXPORT_COLUMNS, csvExportEncoder, csvExportRow } from './export-csv';
import { eventItem, logItem, networkItem } from './item-fixtures';

const parse = (text: string) => Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, newline: '\r\n' });

describe('csv export', () => {
  it('has the columns method, url, status, timestamp and CRLF lines (RFC 4180)', () => {
    const items = [
      networkItem({ num: 1, method: 'POST', url: 'https://x.test/a?b=1,2', status: 201, createdAt: '2026-11-23T10:00:00.000Z' }),
      logItem({ num: 2, createdAt: '2026-11-23T10:00:01.000Z' }),
      networkItem({ num: 3, url: 'https://x.test/"quoted"\nline', status: null, createdAt: '2026-11-23T10:00:02.000Z' }),
    ];
    const text = buildExport(csvExportEncoder(), items);
    expect(text).toBe([
      'method,url,status,timestamp',
      'POST,"https://x.test/a?b=1,2",201,2026-11-23T10:00:00.000Z',
      ',,,2026-11-23T10:00:01.000Z',
      'GET,"https://x.test/""quoted""\nline",,2026-11-23T10:00:02.000Z',
      '',
    ].join('\r\n'));
    expect(EXPORT_FILES.csv.fileName).toBe('spyglass-requests.csv');
  });

  it('parses back with a CSV library to the same rows, whatever the characters', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    fc.assert(fc.property(fc.array(fc.record({ method: text, url: text, status: fc.option(fc.integer({ min: 100, max: 599 })) }), { maxLength: 20 }), (rows) => {
      const items = rows.map((r, i) => networkItem({ num: i + 1, method: r.method, url: r.url, status: r.status }));
      const parsed = parse(buildExport(csvExportEncoder(), items));
      expect(parsed.errors).toEqual([]);
      expect(parsed.data[0]).toEqual([...CSV_EXPORT_COLUMNS]);
      const body = parsed.data.slice(1, -1);
      expect(body).toEqual(items.map((item) => Object.values(csvExportRow(item))));
      expect(parsed.data.at(-1)).toEqual(['']);
    }), { numRuns: 200 });
  });

  it('handles empty, huge and unicode values', () => {
    const huge = `https://x.test/${'ä'.repeat(200_000)}`;
    const items = [networkItem({ url: '', method: '' }), networkItem({ url: huge, method: 'GÉT' }), eventItem()];
    const parsed = parse(buildExport(csvExportEncoder(), items));
    expect(parsed.data.slice(1, 4).map((r) => r.slice(0, 3))).toEqual([['', '', '200'], ['GÉT', huge, '200'], ['', '', '']]);
  });

  it('previews the header and the first 10 rows', () => {
    const items = Array.from({ length: 15 }, (_, i) => networkItem({ num: i + 1 }));
    expect(parse(exportPreview('csv', items)).data).toHaveLength(12);
  });
});
