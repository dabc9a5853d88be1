import { describe, expect, it } from 'vitest';
import { buildExport, EXPORT_FILES, exportPreview, runExport } from './export';
import { jsonExportEncoder } from './export-json';
import { eventItem, generateItems, logItem, networkItem } from './item-fixtures';
import { CapturedItem } from './items';

describe('json export', () => {
  it('is the items as a JSON array, one per line, named spyglass-requests.json', () => {
    const items = [networkItem({ num: 1, requestBody: '{"a":"é\\u0000"}' }), logItem({ num: 2, message: 'line\nbreak "quoted" 👋' }), eventItem({ num: 3 })];
    const text = buildExport(jsonExportEncoder(), items);
    expect(JSON.parse(text)).toEqual(items);
    expect(text.split('\n')).toHaveLength(items.length + 3);
    expect(JSON.parse(text).map((i: unknown) => CapturedItem.parse(i))).toEqual(items);
    expect(EXPORT_FILES.json.fileName).toBe('spyglass-requests.json');
  });

  it('exports an empty list as an empty array', () => {
    expect(JSON.parse(buildExport(jsonExportEncoder(), []))).toEqual([]);
  });

  it('gives the same file in slices as at once', async () => {
    const items = generateItems(1234);
    const parts: string[] = [];
    await runExport(jsonExportEncoder(), items, { write: (p) => parts.push(p), pause: async () => {} });
    expect(parts.join('')).toBe(buildExport(jsonExportEncoder(), items));
    expect(JSON.parse(parts.join(''))).toHaveLength(1234);
  });

  it('previews the first 10 items', () => {
    expect(JSON.parse(exportPreview('json', generateItems(50))).map((i: CapturedItem) => i.num)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
