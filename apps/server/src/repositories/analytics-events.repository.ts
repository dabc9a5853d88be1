import { newId } from '../lib/crypto';
import type { Db } from '../db/database';

export async function insertAnalyticsEvent(db: Db, userId: string, eventType: string, eventData: unknown, at: number): Promise<void> {
  await db.insertInto('analytics_events')
    .values({ id: newId(), user_id: userId, event_type: eventType, event_data: JSON.stringify(eventData ?? {}), created_at: at })
    .execute();
}

export function findAnalyticsEventsForUser(db: Db, userId: string) {
  return db.selectFrom('analytics_events').select(['event_type', 'event_data', 'created_at'])
    .where('user_id', '=', userId).orderBy('created_at').execute();
}
