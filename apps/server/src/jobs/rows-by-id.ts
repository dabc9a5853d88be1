/**
 * Every row of a table, read in pages of `size` in id order, each page starting after the last id
 * of the one before (keyset paging): a job over a whole table holds one page at a time, and rows
 * it deletes or that are added meanwhile never shift the pages still to come. `page` is a
 * repository query `WHERE id > after ORDER BY id LIMIT size`.
 */
export async function* rowsById<T extends { id: string }>(page: (after: string, size: number) => Promise<T[]>, size: number): AsyncGenerator<T> {
  for (let after = ''; ;) {
    const rows = await page(after, size);
    yield* rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}
