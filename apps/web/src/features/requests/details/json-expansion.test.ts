import { describe, expect, it } from 'vitest';
import { childPath, initialExpansion, JSON_OPEN_BUDGET, JSON_PAGE_SIZE, ROOT_PATH } from './json-expansion';

describe('initialExpansion', () => {
  it('opens a small document completely (up to the depth limit)', () => {
    const value = { user: { id: 1, roles: ['a', 'b'], address: { city: 'X' } }, tags: [] };
    const open = initialExpansion(value);
    const user = childPath(ROOT_PATH, 'user');
    expect(open.has(ROOT_PATH)).toBe(true);
    expect(open.has(user)).toBe(true);
    expect(open.has(childPath(user, 'roles'))).toBe(true);
    expect(open.has(childPath(user, 'address'))).toBe(true);
    expect(open.has(childPath(ROOT_PATH, 'tags'))).toBe(true);
  });

  it('opens only the root of a large document', () => {
    const value = { items: Array.from({ length: 700 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a'] })) };
    const open = initialExpansion(value);
    expect(open.has(ROOT_PATH)).toBe(true);
    expect(open.has(childPath(ROOT_PATH, 'items'))).toBe(true);
    expect(open.has(childPath(childPath(ROOT_PATH, 'items'), 0))).toBe(false);
  });

  it('stays within the row budget whatever the shape', () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => Object.fromEntries(Array.from({ length: 10 }, (__, k) => [`k${k}`, { i }])));
    const open = initialExpansion(wide);
    expect([...open]).toEqual([ROOT_PATH]);
    // The first page of a huge array is all the root shows.
    expect(JSON_PAGE_SIZE).toBeLessThanOrEqual(JSON_OPEN_BUDGET);
  });

  it('opens nothing for primitives', () => {
    expect(initialExpansion('text').size).toBe(0);
    expect(initialExpansion(null).size).toBe(0);
    expect(initialExpansion(3).size).toBe(0);
  });

  it('gives distinct paths to keys that look alike', () => {
    expect(childPath(ROOT_PATH, 'a.b')).not.toBe(childPath(childPath(ROOT_PATH, 'a'), 'b'));
    expect(childPath(ROOT_PATH, 1)).toBe(childPath(ROOT_PATH, '1'));
  });
});
