import { describe, expect, it } from 'vitest';
import { canDeleteItems, savesSettings } from './inspector-mode';

describe('inspector modes (spec 001 §2, §6)', () => {
  it('deletes and clears only for a live device', () => {
    expect(canDeleteItems('device')).toBe(true);
    expect(canDeleteItems('session')).toBe(false);
    expect(canDeleteItems('public')).toBe(false);
  });

  it('saves settings everywhere but in the public view', () => {
    expect(savesSettings('device')).toBe(true);
    expect(savesSettings('session')).toBe(true);
    expect(savesSettings('public')).toBe(false);
  });
});
