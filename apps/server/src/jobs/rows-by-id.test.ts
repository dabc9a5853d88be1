import { describe, expect, it } from 'vitest';
import { rowsById } from './rows-by-id';

/** A table of ids as a repository pages it: `id > after`, in id order, `size` at most. */
function table(ids: string[]) {
  const rows = new Map(ids.map((id) => [id, { id }]));
  const asked: string[] = [];
  const page = (after: string, size: number) => {
    asked.push(after);
    return Promise.resolve([...rows.values()].filter((row) => row.id > after).sort((a, b) => a.id.localeCompare(b.id)).slice(0, size));
  };
  return { rows, asked, page };
}

async function walk<T>(rows: AsyncIterable<T>, visit: (row: T) => void = () => {}): Promise<T[]> {
  const seen: T[] = [];
  for await (const row of rows) {
    seen.push(row);
    visit(row);
  }
  return seen;
}

describe('rowsById', () => {
  it('reads every row once, in id order, a page after the last id of the one before', async () => {
    const t = table(['e', 'a', 'd', 'b', 'c']);
    expect((await walk(rowsById(t.page, 2))).map((row) => row.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(t.asked).toEqual(['', 'b', 'd']);
  });

  it('asks once more after a full last page, and not after a short one', async () => {
    const full = table(['a', 'b', 'c', 'd']);
    expect(await walk(rowsById(full.page, 2))).toHaveLength(4);
    expect(full.asked).toEqual(['', 'b', 'd']);
    const empty = table([]);
    expect(await walk(rowsById(empty.page, 2))).toEqual([]);
    expect(empty.asked).toEqual(['']);
  });

  it('is not thrown off by rows deleted while it walks (a retention pass deletes what it reads)', async () => {
    const t = table(['a', 'b', 'c', 'd', 'e']);
    const seen = await walk(rowsById(t.page, 2), (row) => t.rows.delete(row.id));
    expect(seen.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(t.rows.size).toBe(0);
  });
});
