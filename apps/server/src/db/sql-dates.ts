import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Engine } from './database';

/**
 * The UTC day (YYYY-MM-DD, the form of traffic_usage.day) of an epoch-milliseconds expression:
 * the one date conversion the two engines spell differently.
 */
export function utcDayOf(engine: Engine, epochMs: Expression<number | null>): RawBuilder<string> {
  return engine === 'postgres'
    ? sql<string>`to_char(to_timestamp(${epochMs} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`strftime('%Y-%m-%d', ${epochMs} / 1000, 'unixepoch')`;
}
