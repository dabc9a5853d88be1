import { SuccessBody, TOUR_EVENTS, TOUR_MESSAGES, WelcomeTour, type TourEvent } from '@spyglass/protocol';
import { z } from 'zod';
import { api } from './api';
import { readToken } from './storage';

/**
 * The page's half of the welcome tour's self-completing steps (spec 000 §3): a feature reports a
 * UI event (a filter used, a payload opened, a mocked response changed) and, when its step is
 * still pending, it is saved completed through `POST /user/welcome-tour/step`. The account's
 * tours are read once per token, so an event already done costs nothing.
 */
let tours: { token: string; loaded: Promise<WelcomeTour[]> } | null = null;
const reported = new Set<TourEvent>();
const listeners = new Set<(tour: WelcomeTour) => void>();

const Tours = z.array(WelcomeTour);

export const getWelcomeTours = () => api.get('/user/welcome-tour', Tours, { errorMessage: TOUR_MESSAGES.getFailed });

export const saveTourStep = (tourId: WelcomeTour['id'], stepId: string, completed: boolean) =>
  api.post('/user/welcome-tour/step', {
    tourId, stepId, stepData: { id: stepId, status: completed ? 'completed' : 'pending', completedAt: completed ? new Date().toISOString() : null },
  }, WelcomeTour, { errorMessage: TOUR_MESSAGES.stepFailed });

/** Saves whole tours (`POST /user/welcome-tour`). */
export const saveWelcomeTours = (welcomeTour: WelcomeTour[]) =>
  api.post('/user/welcome-tour', { welcomeTour }, SuccessBody, { errorMessage: TOUR_MESSAGES.saveFailed });

export function reportTourEvent(event: TourEvent): void {
  const token = readToken();
  if (!token) return;
  if (tours?.token !== token) {
    tours = { token, loaded: getWelcomeTours() };
    reported.clear();
  }
  if (reported.has(event)) return;
  reported.add(event);
  const { tourId, stepId } = TOUR_EVENTS[event];
  void tours.loaded
    .then(async (list) => {
      const step = list.find((t) => t.id === tourId)?.steps.find((s) => s.id === stepId);
      if (step?.status !== 'pending') return;
      const saved = await saveTourStep(tourId, stepId, true);
      listeners.forEach((listener) => listener(saved));
    })
    .catch((error: unknown) => {
      // Tried again at the next such event.
      reported.delete(event);
      console.error(TOUR_MESSAGES.stepFailed, error);
    });
}

/** The tours changed elsewhere (the tour page's toggles): read them again at the next event. */
export function forgetTourProgress(): void {
  tours = null;
  reported.clear();
}

/** Called with a tour each time a reported event completed one of its steps. */
export function onTourStepCompleted(listener: (tour: WelcomeTour) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
