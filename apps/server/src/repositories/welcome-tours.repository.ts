import type { Db } from '../db/database';

export interface TourRow {
  tour_id: string;
  steps: string;
}

export function findToursForUser(db: Db, userId: string): Promise<TourRow[]> {
  return db.selectFrom('welcome_tours').select(['tour_id', 'steps']).where('user_id', '=', userId).orderBy('tour_id').execute();
}

export function findTourForUser(db: Db, userId: string, tourId: string): Promise<TourRow | undefined> {
  return db.selectFrom('welcome_tours').select(['tour_id', 'steps'])
    .where('user_id', '=', userId).where('tour_id', '=', tourId).executeTakeFirst();
}

export async function upsertTourForUser(db: Db, userId: string, tourId: string, steps: unknown[]): Promise<void> {
  const now = Date.now();
  await db.insertInto('welcome_tours')
    .values({ user_id: userId, tour_id: tourId, steps: JSON.stringify(steps), updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'tour_id']).doUpdateSet({ steps: JSON.stringify(steps), updated_at: now }))
    .execute();
}

/** Saves several tours of the account at once: all of them or none. */
export async function upsertToursForUser(db: Db, userId: string, tours: Array<{ id: string; steps: unknown[] }>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const tour of tours) await upsertTourForUser(trx, userId, tour.id, tour.steps);
  });
}
