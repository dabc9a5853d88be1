import { sql, type TableMetadata } from 'kysely';
import type { Db } from '../../src/db/database';

/** Columns that name the owning account in a table. */
const OWNER_COLUMNS = ['user_id', 'owner_id'];

/** The column of `table` that names its owner, if the table holds user data. */
function ownerColumn(table: TableMetadata): string | undefined {
  if (table.name === 'users') return 'id';
  return OWNER_COLUMNS.find((c) => table.columns.some((col) => col.name === c));
}

/** Tables of this server's own database (on PostgreSQL the introspector sees only our own schema). */
async function ownTables(db: Db): Promise<TableMetadata[]> {
  return (await db.introspection.getTables()).filter((t) => !t.isView);
}

/** Names of the tables that hold user data, found by introspection so later migrations are covered too. */
export async function ownedTables(db: Db): Promise<string[]> {
  return (await ownTables(db)).filter((t) => ownerColumn(t)).map((t) => t.name);
}

/** `{table: count}` of the rows that belong to `userId`, for every table with at least one. */
export async function rowsOfUser(db: Db, userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await ownTables(db)) {
    const owner = ownerColumn(table);
    if (!owner) continue;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)} where ${sql.ref(owner)} = ${userId}`
      .execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) counts[table.name] = n;
  }
  return counts;
}
