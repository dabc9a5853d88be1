import { describe, expect, it } from 'vitest';
import { logItem } from '../../../../../packages/protocol/src/item-fixtures';
import { SessionItems } from './session-items';
import { itemsInRange, rangeStep } from './time-range';

const at = (iso: string, num: number) => logItem({ num, createdAt: iso });

const items = [at('2026-03-01T10:00:00.000Z', 1), at('2026-03-01T10:00:05.000Z', 2), at('2026-03-01T10:00:02.000Z', 3), at('2026-03-01T10:01:00.000Z', 4)];

async function* batches(...lists: ReturnType<typeof at>[][]) {
  for (const list of lists) yield list;
}

describe('session time range', () => {
  const bounds = [Date.parse('2026-03-01T10:00:00.000Z'), Date.parse('2026-03-01T10:01:00.000Z')] as const;

  it('spans the earliest to the latest creation time received, only with at least 2 distinct times', async () => {
    const streamed = new SessionItems();
    const seen: Array<readonly number[] | null> = [];
    streamed.subscribe(() => seen.push(streamed.state.bounds));
    await streamed.consume(batches(items.slice(0, 1), items.slice(1, 3), items.slice(3)), new AbortController().signal);
    expect(seen).toEqual([null, [bounds[0], Date.parse('2026-03-01T10:00:05.000Z')], bounds, bounds]);
    expect(streamed.state).toMatchObject({ count: 4, done: true, error: null });

    const same = new SessionItems();
    await same.consume(batches([at('2026-03-01T10:00:00.000Z', 1), at('2026-03-01T10:00:00.000Z', 2)]), new AbortController().signal);
    expect(same.state.bounds).toBeNull();
  });

  it('keeps the items inside the range, bounds included, in their order', () => {
    const range = [Date.parse('2026-03-01T10:00:02.000Z'), Date.parse('2026-03-01T10:00:05.000Z')] as const;
    expect(itemsInRange(items, range).map((i) => i.num)).toEqual([2, 3]);
    expect(itemsInRange(items, bounds)).toEqual(items);
    expect(itemsInRange(items, null)).toBe(items);
  });

  it('steps a thousandth of the span, at least 1 ms', () => {
    expect(rangeStep(bounds)).toBe(60);
    expect(rangeStep([0, 10])).toBe(1);
  });
});

describe('a session streaming in', () => {
  it('tells each batch once to its listeners, keeps items by id, and stops on an error or when aborted', async () => {
    const streamed = new SessionItems();
    const told: number[][] = [];
    streamed.onAdded((batch) => told.push(batch.map((i) => i.num)));
    const failing = async function* () {
      yield [at('2026-03-01T10:00:00.000Z', 1)];
      throw new Error('connection lost');
    };
    await streamed.consume(failing(), new AbortController().signal);
    expect(told).toEqual([[1]]);
    expect(streamed.get(streamed.items[0]!.id)?.num).toBe(1);
    expect(streamed.state).toMatchObject({ count: 1, done: false, error: new Error('connection lost') });

    const aborted = new SessionItems();
    const controller = new AbortController();
    controller.abort();
    await aborted.consume(batches(items.slice(0, 2)), controller.signal);
    expect(aborted.state).toMatchObject({ count: 0, done: false, error: null });
  });

  it('reads no further batch until the first rows are painted', async () => {
    let paint: () => void = () => {};
    const painted = new Promise<void>((resolve) => (paint = resolve));
    const streamed = new SessionItems(() => painted);
    const read: number[] = [];
    const source = async function* () {
      for (const item of items) {
        read.push(item.num);
        yield [item];
      }
    };
    const done = streamed.consume(source(), new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toEqual([1]);
    expect(streamed.state.count).toBe(1);
    paint();
    await done;
    expect(read).toEqual([1, 2, 3, 4]);
    expect(streamed.state).toMatchObject({ count: 4, done: true });
  });
});
