import { buildExport, exportEncoder, type CapturedItem, type CompactItem } from '@spyglass/protocol';
import { generateItems, logItem, networkItem, screenshotItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { describe, expect, it } from 'vitest';
import { ListStore } from '../store/list-store';
import { ManualHost } from '../store/test-items';
import { exportedItems } from './exported-items';
import { BlobSink, itemsForFormat, loadBatch, needsFullItem, oneAtATime, streamExport } from './stream-export';

/** The full item of a compact one, as GET /v1/requests/{id} answers: with its response body. */
function full(item: CompactItem): CapturedItem {
  if (item.type !== 'network') return item;
  const { hasRequestBody: _req, hasResponseBody: _res, ...rest } = item;
  return { ...rest, details: { ...rest.details, response: { ...rest.details.response!, body: `{"id":"${item.id}"}` } } };
}

/** A loader that counts what it was asked for and how many loads overlapped. */
function countingLoader(items: readonly CompactItem[]) {
  const byId = new Map(items.map((item) => [item.id, item]));
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0 };
  const load = async (id: string) => {
    stats.calls++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 0));
    stats.inFlight--;
    return full(byId.get(id)!);
  };
  return { load, stats };
}

async function collect(options: Omit<Parameters<typeof streamExport>[0], 'write'>): Promise<string> {
  let text = '';
  await streamExport({ ...options, write: (part) => (text += part), pause: () => Promise.resolve() });
  return text;
}

describe('streamed export', () => {
  const items = generateItems(1000);

  it('builds the same HAR as the protocol builder over the full items, loading only network items with bodies', async () => {
    const { load, stats } = countingLoader(items);
    const progress: number[] = [];
    const text = await collect({ format: 'har', items, loadItems: oneAtATime(load, 4), onProgress: (p) => progress.push(p) });
    const network = items.filter((item) => item.type === 'network');
    expect(text).toBe(buildExport(exportEncoder('har'), network.map(full)));
    expect(stats.calls).toBe(network.filter((item) => item.hasResponseBody).length);
    expect(stats.maxInFlight).toBeLessThanOrEqual(4 * 2);
    // 0 first, 100 last, one step per 100 exported items, never backwards.
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress.length).toBe(1 + Math.ceil(network.length / 100));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('needs no loads for csv and loads screenshots for json', async () => {
    const { load, stats } = countingLoader(items);
    const csv = await collect({ format: 'csv', items, loadItems: oneAtATime(load) });
    expect(stats.calls).toBe(0);
    expect(csv).toBe(buildExport(exportEncoder('csv'), items));
    const shot = screenshotItem({ num: 2 });
    expect(needsFullItem('json', shot)).toBe(true);
    expect(needsFullItem('har', shot)).toBe(false);
    expect(needsFullItem('json', logItem())).toBe(false);
    expect(needsFullItem('har', networkItem())).toBe(false);
  });

  it('keeps loads at most one batch ahead of the encoder', async () => {
    const { load } = countingLoader(items);
    let loaded = 0;
    let encodedItems = 0;
    let maxAhead = 0;
    const network = itemsForFormat('har', items);
    await streamExport({
      format: 'har',
      items,
      loadItems: oneAtATime(async (id) => {
        loaded++;
        maxAhead = Math.max(maxAhead, loaded - encodedItems);
        return load(id);
      }),
      write: (part) => {
        encodedItems += (part.match(/"_id"/g) ?? []).length;
      },
      step: 50,
      pause: () => Promise.resolve(),
    });
    expect(encodedItems).toBe(network.length);
    expect(maxAhead).toBeLessThanOrEqual(2 * 50);
  });

  it('reports 0 and 100 for an empty list and stops when aborted', async () => {
    const progress: number[] = [];
    expect(await collect({ format: 'har', items: [logItem()], loadItems: () => Promise.reject(new Error('unused')), onProgress: (p) => progress.push(p) }))
      .toBe(buildExport(exportEncoder('har'), []));
    expect(progress).toEqual([0, 100]);

    const controller = new AbortController();
    const { load } = countingLoader(items);
    const written: string[] = [];
    const run = streamExport({
      format: 'json', items, loadItems: oneAtATime(load), signal: controller.signal, write: (part) => written.push(part),
      onProgress: (p) => { if (p >= 20) controller.abort(); },
    });
    await expect(run).rejects.toThrow();
    expect(written.length).toBeLessThan(5);
  });

  it('fails when a load fails', async () => {
    const bad = [networkItem({ num: 1 })].map((item) => ({ ...item, hasResponseBody: true }));
    await expect(collect({ format: 'har', items: bad, loadItems: oneAtATime(() => Promise.reject(new Error('Request not found'))) })).rejects.toThrow('Request not found');
  });

  it('loads a batch in order, whatever order the loads finish in', async () => {
    const batch = items.slice(0, 30);
    const result = await loadBatch('json', batch, oneAtATime(async (id) => {
      await new Promise((resolve) => setTimeout(resolve, id.length % 3));
      return full(batch.find((item) => item.id === id)!);
    }, 3));
    expect(result.map((item) => item.id)).toEqual(batch.map((item) => item.id));
  });

  it('loads a batch with one call of a batch loader, and keeps an item it left out as listed', async () => {
    const batch = items.filter((item) => item.type === 'network' && item.hasResponseBody).slice(0, 20);
    const calls: string[][] = [];
    const gone = batch[3]!.id;
    const result = await loadBatch('json', batch, async (ids) => {
      calls.push([...ids]);
      return ids.filter((id) => id !== gone).reverse().map((id) => full(batch.find((item) => item.id === id)!));
    });
    expect(calls).toEqual([batch.map((item) => item.id)]);
    expect(result.map((item) => item.id)).toEqual(batch.map((item) => item.id));
    expect(result[3]).toBe(batch[3]);
    expect(result[4]).toEqual(full(batch[4]!));
  });

  it('collects parts in Blobs with the same text', async () => {
    const sink = new BlobSink();
    // A part larger than the buffer, then many that fill it several times over (2-, 3- and 4-byte
    // characters), and a lone surrogate, which a Blob of the text writes as U+FFFD too.
    const parts = ['[', 'x'.repeat(5 * 1024 * 1024), ',"Käse 🧀"', ...Array.from({ length: 2000 }, (_, i) => `,"${'ä€'.repeat(2000 + i)}🧀"`), ',"\ud800"', ']'];
    for (const part of parts) sink.write(part);
    const blob = sink.finish('application/json');
    expect(blob.type).toBe('application/json');
    expect(blob.size).toBe(new Blob(parts).size);
    expect(await blob.text()).toBe(await new Blob(parts).text());
    expect(await new BlobSink().finish('text/csv').text()).toBe('');
  });

  it('exports the selection when there is one, else every shown row in view order', () => {
    const store = new ListStore({ host: new ManualHost() });
    store.upsertMany(items.slice(0, 5));
    expect(exportedItems(store).map((item) => item.num)).toEqual([5, 4, 3, 2, 1]);
    store.selectOnly(1);
    store.toggleAt(3);
    expect(exportedItems(store).map((item) => item.num)).toEqual([4, 2]);
  });
});
