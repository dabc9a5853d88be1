import { describe, expect, it } from 'vitest';
import { DetailsChoices, REQUEST_TABS, RESPONSE_TABS } from './details-choices';

describe('DetailsChoices', () => {
  it('has the tabs of spec 001', () => {
    expect(REQUEST_TABS).toEqual(['Body', 'Headers', 'Query', 'Details']);
    expect(RESPONSE_TABS).toEqual(['Body', 'Headers', 'Details']);
  });

  it('keeps valid remembered choices', () => {
    const stored = { requestTab: 'Query', responseTab: 'Headers', bodyView: 'raw', height: 420 };
    expect(DetailsChoices.parse(stored)).toEqual(stored);
  });

  it('replaces each stale or foreign value by its default, keeping the others', () => {
    expect(DetailsChoices.parse({ requestTab: 'Cookies', responseTab: 'Headers', bodyView: 'hex', height: 12 })).toEqual({
      requestTab: 'Body', responseTab: 'Headers', bodyView: 'pretty', height: 360,
    });
    expect(DetailsChoices.parse({})).toEqual({ requestTab: 'Body', responseTab: 'Body', bodyView: 'pretty', height: 360 });
  });
});
