import { describe, expect, it } from 'vitest';
import { EXPORT_FILES, EXPORT_FORMATS, EXPORT_PROGRESS_STEP, exportEncoder, runExport } from './export';
import { generateItems } from './item-fixtures';

describe('runExport', () => {
  it('reports progress 0 to 100 and yields to the UI every 100 items', async () => {
    const items = generateItems(1050);
    const progress: number[] = [];
    let pauses = 0;
    let writtenBeforeLastPause = 0;
    const parts: string[] = [];
    await runExport(exportEncoder('csv'), items, {
      write: (p) => parts.push(p),
      onProgress: (p) => progress.push(p),
      pause: async () => {
        pauses++;
        writtenBeforeLastPause = parts.length;
      },
    });
    expect(EXPORT_PROGRESS_STEP).toBe(100);
    expect(pauses).toBe(10);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress).toHaveLength(12);
    // Begin, 10 slices written before the last pause; the eleventh slice and the end after it.
    expect(writtenBeforeLastPause).toBe(11);
    expect(parts.join('').split('\r\n').filter(Boolean)).toHaveLength(1051);
  });

  it('finishes an empty export at 100', async () => {
    const progress: number[] = [];
    const parts: string[] = [];
    await runExport(exportEncoder('har'), [], { write: (p) => parts.push(p), onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([0, 100]);
    expect(JSON.parse(parts.join('')).log.entries).toEqual([]);
  });

  it('stops between slices when aborted', async () => {
    const controller = new AbortController();
    const parts: string[] = [];
    const run = runExport(exportEncoder('json'), generateItems(500), {
      write: (p) => parts.push(p),
      pause: async () => controller.abort(),
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow();
    expect(parts).toHaveLength(2);
  });

  it('names the three files after the product', () => {
    expect(EXPORT_FORMATS.map((f) => EXPORT_FILES[f].fileName)).toEqual(['spyglass-requests.json', 'spyglass-requests.csv', 'spyglass-requests.har']);
  });
});
