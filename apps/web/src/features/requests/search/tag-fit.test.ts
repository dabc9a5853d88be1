import { describe, expect, it } from 'vitest';
import { fitTags } from './tag-fit';

describe('search tags on the field\'s one row', () => {
  it('shows every tag that fits, with no chip', () => {
    expect(fitTags([], 200, 4, 28)).toEqual({ shown: 0, firstMaxWidth: null });
    expect(fitTags([100, 96], 200, 4, 28)).toEqual({ shown: 2, firstMaxWidth: null });
  });

  it('keeps room for the +N chip once a tag is left out', () => {
    // The 1280 px toolbar's field (214 px inside): status-code: >=400, NOT method: GET, payments.
    expect(fitTags([128, 122, 78], 214, 4, 28)).toEqual({ shown: 1, firstMaxWidth: null });
    expect(fitTags([60, 60, 60, 60], 214, 4, 28)).toEqual({ shown: 2, firstMaxWidth: null });
    // Three fit alone but not beside the chip for the fourth.
    expect(fitTags([60, 60, 60, 60], 190, 4, 28)).toEqual({ shown: 2, firstMaxWidth: null });
    expect(fitTags([60, 60, 60, 60], 250, 4, 28)).toEqual({ shown: 3, firstMaxWidth: null });
  });

  it('cuts the first tag short rather than show the chip alone', () => {
    expect(fitTags([180, 100], 150, 4, 28)).toEqual({ shown: 1, firstMaxWidth: 118 });
    expect(fitTags([180], 150, 4, 28)).toEqual({ shown: 1, firstMaxWidth: 150 });
  });
});
