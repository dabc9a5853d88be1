import { describe, expect, it } from 'vitest';
import type { Session } from '@spyglass/protocol';
import { matchesSessionSearch } from './session-search';

const session: Session = {
  id: 's1', name: 'Checkout bug', deviceId: 'd1', isShared: false, shareUrl: null, createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z', device: { name: 'Pixel 8', clientAppVersion: '4.2.0' },
  metaData: { requests: 3, device: { name: 'Pixel 8', clientAppVersion: '4.2.0', platform: 'android', model: null, systemVersion: null } },
};

describe('session search', () => {
  it('matches every word against name, device and app version, ignoring case', () => {
    expect(matchesSessionSearch(session, '')).toBe(true);
    expect(matchesSessionSearch(session, '  checkout ')).toBe(true);
    expect(matchesSessionSearch(session, 'PIXEL bug')).toBe(true);
    expect(matchesSessionSearch(session, '4.2')).toBe(true);
    expect(matchesSessionSearch(session, 'checkout iphone')).toBe(false);
  });
});
