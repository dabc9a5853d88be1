import { afterEach, describe, expect, it } from 'vitest';
import { hideTourPanel, moveGuidedTour, startGuidedTour, tourShowsPanel } from './overlay-store';

describe('the parts of the page a guided tour shows (spec 001 Welcome tour: the overlay highlights its target)', () => {
  afterEach(() => moveGuidedTour('exit'));

  it('shows the sidebar on BASIC_TUTORIAL steps 2-3 only, and nothing once the tour ends', () => {
    expect(tourShowsPanel('sidebar')).toBe(false);
    startGuidedTour('BASIC_TUTORIAL');
    const shown: boolean[][] = [];
    for (let step = 1; step <= 4; step += 1) {
      if (step > 1) moveGuidedTour('next');
      shown.push([tourShowsPanel('sidebar'), tourShowsPanel('details')]);
    }
    expect(shown).toEqual([[false, false], [true, false], [true, false], [false, false]]);
    moveGuidedTour('previous');
    expect(tourShowsPanel('sidebar')).toBe(true);
    moveGuidedTour('exit');
    expect(tourShowsPanel('sidebar')).toBe(false);
  });

  it('shows the details panel on the MOCKING_TUTORIAL steps about the mock editor (3-4) and the one after, whose field step 4 focused', () => {
    startGuidedTour('MOCKING_TUTORIAL');
    const shown = [tourShowsPanel('details')];
    for (let step = 2; step <= 5; step += 1) {
      moveGuidedTour('next');
      shown.push(tourShowsPanel('details'));
    }
    expect(shown).toEqual([false, false, true, true, true]);
    expect(tourShowsPanel('sidebar')).toBe(false);
  });

  it('keeps a part the user hid hidden for that step only: the next step, going back and starting over show it again', () => {
    startGuidedTour('BASIC_TUTORIAL');
    hideTourPanel('sidebar');
    moveGuidedTour('next');
    expect(tourShowsPanel('sidebar')).toBe(true);
    hideTourPanel('sidebar');
    expect(tourShowsPanel('sidebar')).toBe(false);
    // Hiding one part leaves the other alone.
    hideTourPanel('details');
    expect(tourShowsPanel('sidebar')).toBe(false);
    moveGuidedTour('next');
    expect(tourShowsPanel('sidebar')).toBe(true);
    moveGuidedTour('previous');
    expect(tourShowsPanel('sidebar')).toBe(true);
    hideTourPanel('sidebar');
    moveGuidedTour('exit');
    startGuidedTour('BASIC_TUTORIAL');
    moveGuidedTour('next');
    expect(tourShowsPanel('sidebar')).toBe(true);
  });
});
