import { describe, expect, it } from 'vitest';
import type { CompactItem } from '@spyglass/protocol';
import { generateItems, networkItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { shareItemStrings, StringPool } from './item-strings';
import { ListStore } from './list-store';

describe('shareItemStrings', () => {
  it('leaves every item equal to what it was, of every type', () => {
    const items = generateItems(200);
    const before = structuredClone(items);
    const pool = new StringPool();
    for (const item of items) shareItemStrings(item, pool);
    expect(items).toEqual(before);
  });

  it('gives items without tags one shared empty array that cannot be written to', () => {
    const [a, b] = generateItems(2);
    const pool = new StringPool();
    shareItemStrings(a!, pool);
    shareItemStrings(b!, pool);
    expect(a!.tags).toBe(b!.tags);
    expect(() => a!.tags.push('x')).toThrow(TypeError);
    expect(b!.tags).toEqual([]);
  });

  it('keeps tags an item has', () => {
    const item: CompactItem = { ...networkItem(), tags: ['checkout'] };
    shareItemStrings(item, new StringPool());
    expect(item.tags).toEqual(['checkout']);
  });
});

describe('StringPool', () => {
  it('keeps one copy of equal strings', () => {
    const pool = new StringPool();
    pool.share('application/json');
    expect(pool.share(['application', 'json'].join('/'))).toBe('application/json');
    expect(pool.size).toBe(1);
  });

  it('starts afresh once 10,000 strings are kept, so values common later on are kept too', () => {
    const pool = new StringPool();
    for (let i = 0; i < 10_000; i++) pool.share(`req-${i}`);
    expect(pool.size).toBe(10_000);
    pool.share('text/html');
    pool.share('text/html');
    expect(pool.size).toBe(1);
  });

  it('does not keep strings over 200 characters', () => {
    const pool = new StringPool();
    const long = 'x'.repeat(201);
    expect(pool.share(long)).toBe(long);
    expect(pool.size).toBe(0);
  });

  it('forgets every string on clear()', () => {
    const pool = new StringPool();
    shareItemStrings(networkItem(), pool);
    expect(pool.size).toBeGreaterThan(0);
    pool.clear();
    expect(pool.size).toBe(0);
  });
});

describe('ListStore with shared strings', () => {
  it('holds and answers the items as written, across a clear', () => {
    const store = new ListStore();
    const items = generateItems(50);
    const expected = structuredClone(items);
    store.upsertMany(items);
    expect(store.get(items[0]!.id)).toEqual(expected[0]);
    store.clear();
    const again = generateItems(5);
    store.upsertMany(again);
    expect(store.totalCount).toBe(5);
    expect([...store.rows()].map((item) => item.id).sort()).toEqual(again.map((item) => item.id).sort());
  });
});
