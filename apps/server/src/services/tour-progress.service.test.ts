import { describe, expect, it } from 'vitest';
import { TOUR_EVENTS, WELCOME_TOURS, type WelcomeTour } from '@spyglass/protocol';
import { eventsOfItems, pendingEvents } from './tour-progress.service';

const item = (type: string, isMocked = 0) => ({ columns: { type, is_mocked: isMocked } });

describe('welcome-tour progress', () => {
  it('maps every step of both tours to one event', () => {
    const steps = Object.values(TOUR_EVENTS).map((e) => `${e.tourId}/${e.stepId}`).sort();
    const all = Object.entries(WELCOME_TOURS).flatMap(([tour, names]) => names.map((name) => `${tour}/${name}`)).sort();
    expect(steps).toEqual(all);
  });

  it('tells which events a commit stands for', () => {
    expect(eventsOfItems([item('event'), item('analytics')])).toEqual([]);
    expect(eventsOfItems([item('log'), item('log')])).toEqual(['logReceived']);
    expect(eventsOfItems([item('screenshot'), item('network')])).toEqual(['screenshotReceived', 'networkRequestReceived']);
    expect(eventsOfItems([item('network', 1)])).toEqual(['networkRequestReceived', 'mockedRequestReceived']);
  });

  it('keeps only the pending steps', () => {
    const tours: WelcomeTour[] = [
      { id: 'BASIC_TUTORIAL', steps: WELCOME_TOURS.BASIC_TUTORIAL.map((id, i) => ({ id, status: i === 0 ? 'completed' : 'pending', completedAt: null })) },
      { id: 'MOCKING_TUTORIAL', steps: WELCOME_TOURS.MOCKING_TUTORIAL.map((id) => ({ id, status: 'completed', completedAt: null })) },
    ];
    expect([...pendingEvents(tours)].sort()).toEqual(['debugWindowOpened', 'filterUsed', 'screenshotReceived']);
  });
});
