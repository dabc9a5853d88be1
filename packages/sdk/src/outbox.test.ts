import { describe, expect, it } from 'vitest';
import { ItemsFrame } from '@spyglass/protocol';
import { DEFAULT_OUTBOX, Outbox } from './outbox';

const item = (id: string, message = 'hello') =>
  JSON.stringify({ id, type: 'log', createdAt: '2026-01-01T00:00:00.000Z', details: { message } });

describe('Outbox', () => {
  it('builds numbered frames that parse as items frames', () => {
    const outbox = new Outbox();
    outbox.add('a', item('a'));
    outbox.add('b', item('b'));
    const batch = outbox.takeBatch()!;
    expect(batch.seq).toBe(1);
    const frame = ItemsFrame.parse(JSON.parse(batch.frame));
    expect(frame.items.map((i) => i.id)).toEqual(['a', 'b']);
    outbox.add('c', item('c'));
    expect(outbox.takeBatch()!.seq).toBe(2);
  });

  it('replaces a queued item with the same id in place', () => {
    const outbox = new Outbox();
    outbox.add('a', item('a', 'first'));
    outbox.add('b', item('b'));
    outbox.add('a', item('a', 'second'));
    const frame = JSON.parse(outbox.takeBatch()!.frame);
    expect(frame.items.map((i: { details: { message: string } }) => i.details.message)).toEqual(['second', 'hello']);
  });

  it('keeps batches until acknowledged, cumulatively', () => {
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBatchItems: 1 });
    for (const id of ['a', 'b', 'c']) outbox.add(id, item(id));
    const seqs = [outbox.takeBatch()!, outbox.takeBatch()!, outbox.takeBatch()!].map((b) => b.seq);
    expect(seqs).toEqual([1, 2, 3]);
    expect(outbox.ack(2)).toBe(2);
    expect(outbox.batchCount).toBe(1);
    expect(outbox.nextUnsent()?.seq).toBe(3);
    expect(outbox.ack(2)).toBe(0);
    expect(outbox.ack(3)).toBe(1);
    expect(outbox.isEmpty).toBe(true);
    expect(outbox.stats()).toMatchObject({ acknowledged: 3, unacknowledged: 0, bytes: 0 });
  });

  it('splits batches by item count and size, never leaving an oversized item behind', () => {
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBatchItems: 3, maxBatchBytes: 300 });
    for (let i = 0; i < 7; i++) outbox.add(`i${i}`, item(`i${i}`));
    outbox.add('big', item('big', 'x'.repeat(1000)));
    const sizes: number[] = [];
    for (let b = outbox.takeBatch(); b; b = outbox.takeBatch()) sizes.push(b.ids.length);
    expect(sizes.reduce((a, n) => a + n, 0)).toBe(8);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.at(-1)).toBe(1);
  });

  it('drops the oldest items beyond its bytes, unacknowledged batches first, and counts them', () => {
    const size = item('a').length;
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBytes: size * 5, maxBatchItems: 2 });
    for (const id of ['a', 'b', 'c']) outbox.add(id, item(id));
    outbox.takeBatch(); // a, b in flight
    for (const id of ['d', 'e', 'f']) outbox.add(id, item(id));
    // 6 items > 5: the in-flight batch (a, b) goes as a whole.
    expect(outbox.stats()).toMatchObject({ dropped: 2, queued: 4, unacknowledged: 0 });
    for (const id of ['g', 'h']) outbox.add(id, item(id));
    expect(outbox.stats()).toMatchObject({ dropped: 3, queued: 5 });
    const ids: string[] = [];
    for (let b = outbox.takeBatch(); b; b = outbox.takeBatch()) ids.push(...b.ids);
    expect(ids).toEqual(['d', 'e', 'f', 'g', 'h']);
  });

  it('holds a burst of 50,000 small items by default: the bound is bytes, not a count', () => {
    const outbox = new Outbox();
    for (let i = 0; i < 50_000; i++) outbox.add(`i${i}`, item(`i${i}`, `burst item ${i}`));
    expect(outbox.stats()).toMatchObject({ queued: 50_000, dropped: 0, backpressure: false, maxBytes: 32 * 1024 * 1024 });
  });

  it('bounds memory by bytes', () => {
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBytes: 10_000 });
    for (let i = 0; i < 1000; i++) outbox.add(`i${i}`, item(`i${i}`, 'y'.repeat(100)));
    const stats = outbox.stats();
    expect(stats.bytes).toBeLessThanOrEqual(10_000);
    expect(stats.dropped + stats.queued).toBe(1000);
    expect(stats.dropped).toBeGreaterThan(900);
  });

  it('reports backpressure once half full and its end once under a quarter, once each', () => {
    const size = item('i00').length;
    const states: boolean[] = [];
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBytes: size * 100, maxBatchItems: 10 }, (state) => states.push(state.active));
    for (let i = 0; i < 49; i++) outbox.add(`i${String(i).padStart(2, '0')}`, item(`i${String(i).padStart(2, '0')}`));
    expect(states).toEqual([]);
    outbox.add('i49', item('i49'));
    expect(states).toEqual([true]);
    expect(outbox.stats().backpressure).toBe(true);
    const seqs: number[] = [];
    for (let b = outbox.takeBatch(); b; b = outbox.takeBatch()) seqs.push(b.seq);
    outbox.ack(seqs[1]!); // 30 of 50 left: still above a quarter
    expect(states).toEqual([true]);
    outbox.ack(seqs[2]!); // 20 left
    expect(states).toEqual([true, false]);
    expect(outbox.stats()).toMatchObject({ backpressure: false, dropped: 0 });
  });

  it('renumbers a batch refused for now and every later one, keeping their order', () => {
    const outbox = new Outbox({ ...DEFAULT_OUTBOX, maxBatchItems: 1 });
    for (const id of ['a', 'b', 'c']) outbox.add(id, item(id));
    for (let b = outbox.takeBatch(); b; b = outbox.takeBatch()) b.sent = true;
    expect(outbox.requeueFrom(2)).toBe(true);
    expect(outbox.requeueFrom(2)).toBe(false);
    // An ack for an old number does not settle the renumbered batches.
    expect(outbox.ack(3)).toBe(1);
    const resent = [outbox.nextUnsent()!];
    resent[0]!.sent = true;
    resent.push(outbox.nextUnsent()!);
    expect(resent.map((b) => [b.seq, b.ids[0]])).toEqual([[4, 'b'], [5, 'c']]);
    expect(JSON.parse(resent[0]!.frame)).toMatchObject({ type: 'items', seq: 4, items: [{ id: 'b' }] });
    outbox.add('d', item('d'));
    expect(outbox.takeBatch()!.seq).toBe(6);
  });

  it('forgets a refused batch and counts it as rejected', () => {
    const outbox = new Outbox();
    outbox.add('a', item('a'));
    const batch = outbox.takeBatch()!;
    expect(outbox.reject(batch.seq)?.ids).toEqual(['a']);
    expect(outbox.reject(batch.seq)).toBeUndefined();
    expect(outbox.stats()).toMatchObject({ rejected: 1, unacknowledged: 0, bytes: 0 });
  });
});
