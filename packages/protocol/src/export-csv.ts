/**
 * The csv export (spec 001 §7: `spyglass-requests.csv`, columns method, url, status, timestamp),
 * quoted per RFC 4180 by papaparse: CRLF line ends, fields with a comma, quote or line break in
 * double quotes, quotes doubled. Methods and URLs are chosen by the device, so a cell a spreadsheet
 * would evaluate as a formula is written as text (see `CSV_FORMULA_START`).
 */
import Papa from 'papaparse';
import { z } from 'zod';
import type { ExportEncoder } from './export';
import { itemStatus } from './format';
import type { CapturedItem } from './items';

export const CSV_EXPORT_COLUMNS = ['method', 'url', 'status', 'timestamp'] as const;

/** One line of the csv export: empty strings where an item has no such value (logs, events). */
export const CsvExportRow = z.object({ method: z.string(), url: z.string(), status: z.string(), timestamp: z.string() });
export type CsvExportRow = z.infer<typeof CsvExportRow>;

export function csvExportRow(item: CapturedItem): CsvExportRow {
  const network = item.type === 'network' ? item.details.request : null;
  const status = itemStatus(item);
  return {
    method: network?.method ?? item.method ?? '',
    url: network?.url ?? item.url ?? '',
    status: status === null ? '' : String(status),
    timestamp: item.createdAt,
  };
}

/**
 * OWASP's "CSV Injection" rule: a cell that starts with one of these is prefixed with `'` and
 * quoted, so spreadsheets show it as text. papaparse's own `escapeFormulae: true` pattern ends in
 * `.*$`, which misses any cell holding a line break (`=HYPERLINK(...)\n...`); this one does not.
 */
export const CSV_FORMULA_START = /^[=+\-@\t\r]/;

const UNPARSE: Papa.UnparseConfig = { header: false, newline: '\r\n', quotes: false, escapeFormulae: CSV_FORMULA_START };

export function csvExportEncoder(): ExportEncoder {
  return {
    begin: () => Papa.unparse([[...CSV_EXPORT_COLUMNS]], UNPARSE) + '\r\n',
    encode(items: ArrayLike<CapturedItem>, from: number, to: number): string {
      if (to <= from) return '';
      const rows: string[][] = new Array(to - from);
      for (let i = from; i < to; i++) {
        const row = csvExportRow(items[i]!);
        rows[i - from] = [row.method, row.url, row.status, row.timestamp];
      }
      return Papa.unparse(rows, UNPARSE) + '\r\n';
    },
    end: () => '',
  };
}
