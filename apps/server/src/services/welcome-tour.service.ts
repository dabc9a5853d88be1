import { TOUR_IDS, WELCOME_TOURS, type TourStep, type WelcomeTour } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../errors';
import { findTourForUser, findToursForUser, upsertTourForUser } from '../repositories/welcome-tours.repository';

type TourId = keyof typeof WELCOME_TOURS;

function defaultTour(id: TourId): WelcomeTour {
  return { id, steps: WELCOME_TOURS[id].map((name) => ({ id: name, status: 'pending' as const, completedAt: null })) };
}

/** Every tour of the account, a tour never saved in its initial state. */
export async function listTours(db: Db, userId: string): Promise<WelcomeTour[]> {
  const rows = new Map((await findToursForUser(db, userId)).map((r) => [r.tour_id, r.steps]));
  return TOUR_IDS.map((id) => {
    const stored = rows.get(id);
    return stored ? { id, steps: JSON.parse(stored) as TourStep[] } : defaultTour(id);
  });
}

/** Replaces one step of a tour; answers the whole tour as saved. */
export async function saveTourStep(db: Db, userId: string, tourId: TourId, stepId: string, step: TourStep): Promise<WelcomeTour> {
  if (step.id !== stepId) throw badRequest('stepData.id must equal stepId');
  const stored = await findTourForUser(db, userId, tourId);
  const tour = stored ? { id: tourId, steps: JSON.parse(stored.steps) as TourStep[] } : defaultTour(tourId);
  const index = tour.steps.findIndex((s) => s.id === stepId);
  if (index < 0) throw notFound(`Unknown step "${stepId}" in ${tourId}`);
  tour.steps[index] = step;
  await upsertTourForUser(db, userId, tourId, tour.steps);
  return tour;
}
